#!/usr/bin/env python3
"""End-to-end check of `meniscus capture --timings`: every pass of the compiled graph has
per-pass statistics, the trace loads as Chrome trace JSON, the CSV has a row per frame and pass."""
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

meniscus, scene = sys.argv[1], sys.argv[2]
frames, warmup = 120, 20
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    cmd = [meniscus, "capture", scene, "--size", "320x180", "--frames", str(frames),
           "--warmup", str(warmup), "--sim", "cpu", "--validation",
           "--timings", str(tmp / "t.json"), "--timings", str(tmp / "t.csv"),
           "--timings", str(tmp / "t.trace.json"), "--png", str(tmp / "c.png"),
           "--dump-graph", str(tmp / "g.dot")]
    run = subprocess.run(cmd, capture_output=True, text=True)
    print(run.stdout, run.stderr)
    assert run.returncode == 0, f"capture exited with {run.returncode}"
    assert "validation:" not in run.stderr, "validation messages reported"
    assert (tmp / "c.png").stat().st_size > 0

    dot = (tmp / "g.dot").read_text()
    timings = json.loads((tmp / "t.json").read_text())
    passes = timings["passes"]
    # Every pass the compiled graph ran (boxes in the dot dump, culled ones excluded) has
    # statistics over all recorded frames.
    graph_passes = [name for name in re.findall(r'\[shape=box, label="([^"]+)"', dot) if "(culled)" not in name]
    print("passes in graph:", graph_passes)
    print("passes timed:", sorted(passes))
    assert graph_passes, "no passes in the dumped graph"
    for name in graph_passes:
        assert name in passes, f"pass {name} is in the graph but has no statistics"
    # Passes drawing a stage carry its name (the scene's ballistic stage is named after its type).
    for name in ("scene.background", "ballistic.particles.impostors", "output.tonemap"):
        assert name in passes, f"no statistics for pass {name}"
        stats = passes[name]
        assert stats["count"] == frames, f"{name}: {stats['count']} samples, expected {frames}"
        for key in ("min", "median", "p95", "p99", "max"):
            assert stats[key] >= 0.0, f"{name}.{key} = {stats[key]}"
        assert stats["min"] <= stats["median"] <= stats["p95"] <= stats["p99"] <= stats["max"]
    meta = timings["metadata"]
    for key in ("device", "driver", "scene", "git_revision", "width", "height"):
        assert meta.get(key) not in (None, ""), f"metadata.{key} missing"

    trace = json.loads((tmp / "t.trace.json").read_text())
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    complete = [e for e in events if e.get("ph") == "X"]
    assert complete, "no complete events in trace"
    for e in complete:
        assert {"name", "ts", "dur", "pid", "tid"} <= set(e), e

    with open(tmp / "t.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= frames * len(passes), f"{len(rows)} CSV rows"
print("capture timings OK")
