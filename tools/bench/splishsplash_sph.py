#!/usr/bin/env python3
"""The reference DFSPH beside `meniscus-bench sph`: SPlisHSPlasH (not packaged, never part of
this repository; build it elsewhere) runs the same three cases, one JSON line per case.

    tools/bench/splishsplash_sph.py --simulator PATH/SPHSimulator --unit-box PATH/UnitBox.obj \
        [--particles 65536] [--steps 100] [--threads 1] [--meniscus-bench build/meniscus-bench]

With --meniscus-bench, ours runs the same cases first (CPU backend) and a last line per case
gives the ratio of the two step times. Ours runs with SPlisHSPlasH's particle volume, 0.8 d^3
(its FluidModel sets m_V = 0.8 diam^3), so both solve the same problem: a lattice that starts
20% below rest density and packs 25% denser. With our own lattice volume (--particle-volume 0)
our fluid starts at rest density: a different problem (the collapsing block takes 6.5 density
iterations a step instead of 2.0).

Each case is written as two SPlisHSPlasH scenes that stop after the warm-up steps and after the
warm-up plus the timed steps; SPlisHSPlasH prints its mean step time and iterations per run, so
the timed steps' figures are the difference of the two runs (its runs are deterministic on one
thread). The difference carries the warm-up's timing noise (a few percent of 280 steps for the
tall column), hence many timed steps by default. The set-up follows tools/bench/sph_bench.cpp's make_case: particle radius 5 mm, the same
boxes, fill lattices and initial velocities, the same fixed step (cflMethod 0), DFSPH with the
same tolerances (0.05 % density, 0.1 % divergence, at least 2 density iterations), standard
viscosity 1e-5, walls as Akinci 2012 boundary particles on the tank's faces.
Differences that remain: SPlisHSPlasH's walls are one sampled layer at the faces, ours two
layers behind the faces; its pressure solver is a relaxed Jacobi with a warm start, ours the
monotone form without one; it is built with AVX, ours for baseline SSE.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

R = 0.005
D = 2 * R


def cfl_step(height, thrown=0.0):
    return 0.4 * D / (thrown + math.sqrt(2 * 9.81 * height))


def fluid_block(low, counts, velocity=(0, 0, 0)):
    # SPlisHSPlasH puts a block's particles at start + d * (1 .. round(extent / d) - 1); ours sit
    # at low + r + d * (0 .. n - 1).
    start = [low[a] + R - D for a in range(3)]
    return {"denseMode": 0, "start": start, "end": [start[a] + (counts[a] + 1) * D for a in range(3)],
            "translation": [0, 0, 0], "scale": [1, 1, 1], "initialVelocity": list(velocity)}


def make_case(name, count):
    """(tank size, fluid blocks, step, warm-up seconds), as sph_bench.cpp's make_case."""
    if name == "collapsing_block":
        n = max(2, round((count / 2) ** (1 / 3)))
        return [3 * n * D, 3 * n * D, n * D], [fluid_block([0, 0, 0], [n, 2 * n, n])], cfl_step(2 * n * D), 0.0
    if name == "tall_column":
        n = max(2, round((count / 8) ** (1 / 3)))
        return [n * D, 9 * n * D, n * D], [fluid_block([0, 0, 0], [n, 8 * n, n])], cfl_step(8 * n * D), 0.2
    n = max(2, round((count / 4) ** (1 / 3)))
    blocks = [fluid_block([0, 0, 0], [3 * n, math.floor(0.5 * n + 1e-3), 2 * n]),
              fluid_block([n * D, 1.5 * n * D, 0.5 * n * D], [n, n, n], (0, -4, 0))]
    return [3 * n * D, 4 * n * D, 2 * n * D], blocks, cfl_step(2.5 * n * D, 4.0), n * D / 4 + 0.01


def scene(tank, blocks, dt, steps, unit_box):
    return {
        "Configuration": {
            "particleRadius": R, "simulationMethod": 4, "gravitation": [0, -9.81, 0], "timeStepSize": dt,
            "cflMethod": 0, "stopAt": (steps - 0.5) * dt, "boundaryHandlingMethod": 0, "enableZSort": True,
            "DFSPH": {"minIterations": 2, "maxIterations": 100, "maxError": 0.05, "maxIterationsV": 100,
                      "maxErrorV": 0.1, "enableDivergenceSolver": True}},
        "Materials": [{"id": "Fluid", "density0": 1000, "viscosityMethod": 1,
                       "Standard viscosity": {"viscosity": 1e-5, "boundaryViscosity": 0.0}}],
        "RigidBodies": [{"geometryFile": unit_box, "translation": [x / 2 for x in tank], "rotationAxis": [1, 0, 0],
                         "rotationAngle": 0, "scale": tank, "isDynamic": False, "isWall": True,
                         "samplingMode": 1, "mapInvert": True}],
        "FluidBlocks": blocks}


def run(args, scene_file, out_dir):
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    log = subprocess.run([args.simulator, "--no-gui", "--output-dir", out_dir, scene_file], env=env,
                         capture_output=True, text=True, check=True).stdout

    def number(pattern):
        found = re.search(pattern, log)
        if not found:
            sys.exit(f"splishsplash_sph: no '{pattern}' in the output for {scene_file}")
        return float(found.group(1))
    return {"particles": int(number(r"Number of fluid particles: (\d+)")),
            "step_ms_sum": number(r"Time sum: SimStep: ([\d.e+-]+) ms"),
            "density_iterations": number(r"Total number: DFSPH - iterations: ([\d.e+-]+)"),
            "divergence_iterations": number(r"Total number: DFSPH - iterationsV: ([\d.e+-]+)")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulator", required=True)
    parser.add_argument("--unit-box", required=True, help="SPlisHSPlasH's data/models/UnitBox.obj")
    parser.add_argument("--particles", type=int, default=65536)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cases", default="collapsing_block,tall_column,splash")
    parser.add_argument("--meniscus-bench", help="also run ours, and print the ratios")
    parser.add_argument("--particle-volume", default="0.8",
                        help="ours: a particle's volume over d^3 (SPlisHSPlasH's 0.8; 0: our lattice's own)")
    args = parser.parse_args()
    ours = {}
    if args.meniscus_bench:
        out = subprocess.run([args.meniscus_bench, "sph", "--threads", str(args.threads), "--particles",
                              str(args.particles), "--steps", str(args.steps), "--backends", "cpu", "--cases",
                              args.cases, "--particle-volume", args.particle_volume],
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("{"):
                print(line, flush=True)
                result = json.loads(line)
                ours[result["case"]] = result["ms_per_step"]
    with tempfile.TemporaryDirectory() as work:
        for name in args.cases.split(","):
            tank, blocks, dt, warm_s = make_case(name, args.particles)
            warm = max(3, math.ceil(warm_s / dt))  # sph_bench.cpp's warm-up rule
            runs = []
            for steps in (warm, warm + args.steps):
                path = os.path.join(work, f"{name}_{steps}.json")
                with open(path, "w") as f:
                    json.dump(scene(tank, blocks, dt, steps, os.path.abspath(args.unit_box)), f)
                runs.append(run(args, path, os.path.join(work, f"out_{name}_{steps}")))
            timed = {k: (runs[1][k] - runs[0][k]) / args.steps for k in runs[0] if k != "particles"}
            print(json.dumps({"bench": "sph", "case": name, "impl": "SPlisHSPlasH", "threads": args.threads,
                              "particles": runs[0]["particles"], "dt_s": dt, "warmup_steps": warm,
                              "steps": args.steps, "ms_per_step": timed["step_ms_sum"],
                              "density_iterations_per_step": timed["density_iterations"],
                              "divergence_iterations_per_step": timed["divergence_iterations"]}), flush=True)
            if name in ours:
                print(json.dumps({"bench": "sph", "case": name, "threads": args.threads,
                                  "speedup_vs_splishsplash": timed["step_ms_sum"] / ours[name]}), flush=True)


if __name__ == "__main__":
    main()
