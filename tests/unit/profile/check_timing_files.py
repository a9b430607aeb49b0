#!/usr/bin/python3
"""Checks the sample timing files the profile tests wrote (DIR/a.json, a.trace.json, a.csv) with
Python's own parsers: the JSON statistics, the Chrome trace events, the CSV rows."""
import csv
import json
import math
import sys
from pathlib import Path

directory = Path(sys.argv[1])
FRAMES, PASSES, STAGES = 50, ("scene.background", "output.tonemap"), ("ballistic",)
STATS = ("count", "min", "median", "p95", "p99", "max", "mean")

# Statistics file.
data = json.loads((directory / "a.json").read_text())
assert set(data) >= {"metadata", "frame", "passes", "stages", "frames"}, sorted(data)
meta = data["metadata"]
assert meta["scene"] == 'test "quoted" scene', meta["scene"]
assert meta["driver"] == "back\\slash\ttab\nnewline \x01 control", repr(meta["driver"])
assert (meta["width"], meta["height"], meta["frames"], meta["warmup"]) == (64, 32, FRAMES, 10), meta
for key in ("cpu_ms", "gpu_ms"):
    assert set(data["frame"][key]) == set(STATS), data["frame"][key]
    assert data["frame"][key]["count"] == FRAMES
assert list(data["passes"]) == list(PASSES), list(data["passes"])
assert list(data["stages"]) == list(STAGES), list(data["stages"])
for name, s in list(data["passes"].items()) + list(data["stages"].items()):
    assert set(s) == set(STATS), (name, s)
    assert s["count"] == FRAMES, (name, s)
    assert s["min"] <= s["median"] <= s["p95"] <= s["p99"] <= s["max"], (name, s)
assert len(data["frames"]) == FRAMES
# The per-frame values are the ones the statistics were computed from.
background = sorted(f["passes"]["scene.background"] for f in data["frames"])
assert math.isclose(data["passes"]["scene.background"]["min"], background[0])
assert math.isclose(data["passes"]["scene.background"]["max"], background[-1])
for f in data["frames"]:
    assert math.isclose(f["gpu_ms"], sum(f["passes"].values())), f

# Chrome trace: complete events in microseconds on three tracks, metadata in otherData.
trace = json.loads((directory / "a.trace.json").read_text())
events = trace["traceEvents"]
complete = [e for e in events if e["ph"] == "X"]
assert complete, "no complete events"
for e in complete:
    assert {"name", "ph", "pid", "tid", "ts", "dur"} <= set(e), e
    assert isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
tracks = {(e["pid"], e["tid"]) for e in complete}
assert len(tracks) == 3, f"expected CPU frame, sim stage and GPU pass tracks, got {tracks}"
frames = [e for e in complete if e["name"].startswith("frame ")]
assert len(frames) == FRAMES
assert math.isclose(frames[1]["ts"] - frames[0]["ts"], 16600, abs_tol=1e-6), "frame starts 16.6 ms apart must be 16600 us apart"
first_pass = next(e for e in complete if e["name"] == "scene.background")
assert first_pass["dur"] == 2000, first_pass  # 2.0 ms
for track in tracks:  # slices on one track follow each other (no partial overlap)
    slices = sorted((e["ts"], e["ts"] + e["dur"]) for e in complete if (e["pid"], e["tid"]) == track)
    for (_, end), (begin, _) in zip(slices, slices[1:]):
        assert begin >= end - 1e-6, (track, end, begin)
names = {e["args"]["name"] for e in events if e["ph"] == "M"}
assert {"CPU", "frame", "simulation stages", "passes"} <= names, names
assert trace["otherData"]["device"] == "fake device", trace["otherData"]

# CSV: header, then per frame cpu + gpu + a row per pass and per stage.
with open(directory / "a.csv", newline="") as f:
    rows = list(csv.DictReader(f))
assert len(rows) == FRAMES * (2 + len(PASSES) + len(STAGES)), len(rows)
assert set(rows[0]) == {"frame", "kind", "name", "ms"}, rows[0]
assert {r["kind"] for r in rows} == {"frame", "pass", "stage"}
assert sum(1 for r in rows if r["kind"] == "pass" and r["name"] == "output.tonemap") == FRAMES
print("timing files OK")
