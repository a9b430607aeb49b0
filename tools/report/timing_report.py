#!/usr/bin/python3
"""Compare Meniscus timing captures (the .json files of `meniscus capture --timings t.json`).

    timing-report a.json [b.json ...] [--out DIR] [--require-plots]

Prints a markdown table: one row for the frame's CPU and GPU time, one per pass and one per sim
stage; for each capture its median and p95, then each later capture's median as a ratio of the
first capture's. Writes two plots to DIR (default: timing-report/):
  frame_times.png  GPU and CPU frame time over frames, one line per capture
  passes.png       median GPU time per pass, bars grouped by pass, one colour per capture
Uses Debian's python3-matplotlib (Agg backend, no display needed); nothing else.
"""
import argparse
import json
import math
import sys
from pathlib import Path

REQUIRED_KEYS = ("metadata", "frame", "passes", "frames")


def fail(message):
    sys.exit(f"timing-report: {message}")


def load(path):
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        fail(f"{path}: {error}")
    if not isinstance(data, dict):
        fail(f"{path}: not a Meniscus timing file (a .trace.json or .csv? pass the .json)")
    for key in REQUIRED_KEYS:
        if key not in data:
            fail(f"{path}: not a Meniscus timing file (no '{key}')")
    data.setdefault("stages", {})
    return data


def short_names(paths):
    """File stems, or the whole paths where two captures share a stem."""
    stems = [Path(p).stem for p in paths]
    return [s if stems.count(s) == 1 else str(p) for s, p in zip(stems, paths)]


def number(value):
    """A finite float, or None (null in the file: no samples)."""
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def stat(summary, key):
    if not summary or summary.get("count", 0) == 0:
        return None
    return number(summary.get(key))


def ordered_union(captures, section):
    names = []
    for data in captures:
        for name in data[section]:
            if name not in names:
                names.append(name)
    return names


def table(names, captures):
    rows = [("frame (GPU)", lambda d: d["frame"].get("gpu_ms")), ("frame (CPU)", lambda d: d["frame"].get("cpu_ms"))]
    rows += [(p, (lambda n: lambda d: d["passes"].get(n))(p)) for p in ordered_union(captures, "passes")]
    rows += [(f"stage {s}", (lambda n: lambda d: d["stages"].get(n))(s)) for s in ordered_union(captures, "stages")]

    header = ["ms"]
    for name in names:
        header += [f"{name} median", f"{name} p95"]
    header += [f"{name} / {names[0]}" for name in names[1:]]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for title, get in rows:
        cells = [title]
        medians = []
        for data in captures:
            summary = get(data)
            median, p95 = stat(summary, "median"), stat(summary, "p95")
            cells += [f"{median:.3f}" if median is not None else "—", f"{p95:.3f}" if p95 is not None else "—"]
            medians.append(median)
        base = medians[0]
        for m in medians[1:]:
            cells.append(f"{m / base:.2f}×" if m is not None and base else "—")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def describe(name, data):
    meta = data["metadata"]
    return (f"{name}: {meta.get('scene')} at {meta.get('width')}x{meta.get('height')} on {meta.get('device')} "
            f"({meta.get('driver')}), sim {meta.get('sim_backend') or '?'}, {meta.get('frames')} frames after "
            f"{meta.get('warmup')} warm-up, revision {meta.get('git_revision') or '?'}, {meta.get('timestamp_utc') or '?'}")


def plot(names, captures, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    labels = [f"{n} ({d['metadata'].get('device', '?')}, {d['metadata'].get('width')}x{d['metadata'].get('height')})"
              for n, d in zip(names, captures)]

    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for key, ax, title in (("gpu_ms", axes[0], "GPU frame time (ms)"), ("cpu_ms", axes[1], "CPU frame time (ms)")):
        for label, data in zip(labels, captures):
            points = [(f["frame"], number(f.get(key))) for f in data["frames"]]
            points = [(x, y) for x, y in points if y is not None]
            ax.plot([x for x, _ in points], [y for _, y in points], label=label, linewidth=1)
        ax.set_ylabel(title)
        ax.grid(alpha=0.3)
    axes[0].set_title("Frame time over frames")
    axes[0].legend(fontsize=8)
    axes[1].set_xlabel("frame")
    fig.tight_layout()
    frame_png = out / "frame_times.png"
    fig.savefig(frame_png, dpi=110)
    plt.close(fig)

    passes = ordered_union(captures, "passes")
    fig, ax = plt.subplots(figsize=(9, 0.5 * max(len(passes), 1) * len(captures) + 1.5))
    height = 0.8 / len(captures)
    for i, (label, data) in enumerate(zip(labels, captures)):
        values = [stat(data["passes"].get(p), "median") or 0.0 for p in passes]
        ax.barh([j + i * height for j in range(len(passes))], values, height=height, label=label)
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(passes))])
    ax.set_yticklabels(passes)
    ax.invert_yaxis()
    ax.set_xlabel("median GPU time (ms)")
    ax.set_title("Per-pass GPU time" if passes else "Per-pass GPU time (no passes timed)")
    if passes:
        ax.legend(fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    passes_png = out / "passes.png"
    fig.savefig(passes_png, dpi=110)
    plt.close(fig)
    return frame_png, passes_png


def main(argv=None):
    parser = argparse.ArgumentParser(prog="timing-report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("captures", nargs="+", help="timing .json files; the first is the baseline for ratios")
    parser.add_argument("--out", default="timing-report", help="folder for the PNG plots (default: %(default)s)")
    parser.add_argument("--require-plots", action="store_true", help="fail if matplotlib is missing")
    args = parser.parse_args(argv)
    captures = [load(path) for path in args.captures]
    names = short_names(args.captures)

    print(table(names, captures))
    print()
    for name, data in zip(names, captures):
        print(describe(name, data))

    try:
        frame_png, passes_png = plot(names, captures, Path(args.out))
    except ImportError:
        if args.require_plots:
            fail("matplotlib missing (apt-get install python3-matplotlib)")
        print("\n(no plots: python3-matplotlib is not installed)")
        return 0
    print(f"\nplots: {frame_png}, {passes_png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
