#!/usr/bin/python3
"""Runs tools/timing-report on two sample captures (b is a 1.5x slower copy of a) and checks the
table's rows and ratios and that both plots are PNG images."""
import subprocess
import sys
from pathlib import Path

tool, directory = sys.argv[1], Path(sys.argv[2])
out = directory / "plots"
for old in out.glob("*.png"):
    old.unlink()
run = subprocess.run([tool, str(directory / "a.json"), str(directory / "b.json"), "--out", str(out),
                      "--require-plots"], capture_output=True, text=True)
print(run.stdout, run.stderr)
assert run.returncode == 0, f"timing-report exited with {run.returncode}"

rows = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[2:-1]]
        for line in run.stdout.splitlines() if line.startswith("| ")}
header = rows.pop("ms")
assert header == ["a median", "a p95", "b median", "b p95", "b / a"], header
for name in ("frame (GPU)", "frame (CPU)", "scene.background", "output.tonemap", "stage ballistic"):
    assert name in rows, f"no row for {name}: {sorted(rows)}"
for name in ("frame (GPU)", "scene.background", "output.tonemap", "stage ballistic"):
    assert rows[name][-1] == "1.50×", (name, rows[name])
assert rows["frame (CPU)"][-1] == "1.00×", rows["frame (CPU)"]
# scene.background in a: 2.0 + 0.1 * (f % 5) over 50 frames -> median 2.2 (numpy: np.median -> 2.2)
assert rows["scene.background"][0] == "2.200", rows["scene.background"]

for name in ("frame_times.png", "passes.png"):
    png = out / name
    assert png.exists(), f"{png} not written"
    head = png.read_bytes()[:8]
    assert head == b"\x89PNG\r\n\x1a\n", f"{png} is not a PNG"
    assert png.stat().st_size > 5000, f"{png} is suspiciously small"
print("timing report OK")
