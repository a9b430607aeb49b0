#!/usr/bin/env bash
# Bad benchmark flags: each must end the program with a non-zero exit and one error line that
# names the flag, before any work starts. Usage: bad_flags_test.sh path/to/meniscus-bench
set -u
bench=$1
failures=0
check() {  # check "<expected text>" args...
  local expected=$1
  shift
  local output status
  output=$(timeout 20 "$bench" "$@" 2>&1)
  status=$?
  if [[ $status -eq 0 || $status -eq 124 || $status -ge 128 ]]; then
    echo "FAIL: meniscus-bench $* exited $status"
    failures=$((failures + 1))
  elif [[ $output != *"$expected"* ]]; then
    echo "FAIL: meniscus-bench $*: expected '$expected' in: $output"
    failures=$((failures + 1))
  fi
}
check "--poisson-depth" reconstruct --poisson-depth 13
check "--poisson-depth" reconstruct --poisson-depth
check "--poisson-depth" reconstruct --poisson-depth 9x
check "--poisson-normals" reconstruct --poisson-normals sideways
check "--lost-distance" reconstruct --lost-distance -1
check "--lost-distance" reconstruct --lost-distance nan
check "--lost-distance" reconstruct --lost-distance 2x
check "--fit-iterations" reconstruct --fit-iterations -1
check "--fit-iterations" reconstruct --fit-iterations 3x
check "--gap-slowdown" reconstruct --gap-slowdown -1
check "--gap-slowdown" reconstruct --gap-slowdown nan
check "--finest-repasses" reconstruct --finest-repasses 9
check "--finest-repasses" reconstruct --finest-repasses 1.5
check "--cases" sph --cases nope
check "--cases" kdtree --cases nope
check "--points" kdtree --points 0
check "--kernels" kdtree --kernels avx9
check "--kernels: expected fastest, avx2 or baseline" mc --kernels avx9
check "--threads" reconstruct --threads abc
check "--alpha" reconstruct --alpha nan
check "--depth" reconstruct --depth 9x
check "--steps" levelset --steps 0
check "--radii" levelset --radii 5,abc
check "--enright-cfl" levelset --enright-cfl 0
check "--repeat" mc --repeat -1
check "--sizes" mc --sizes 64,1e3
check "--size" mip --size 100x
check "--budgets" mip --budgets 0.5,2
check "--size" fluid --size 1920x1080junk
check "--lower" segment --lower abc
check "--seed" segment --seed 1,2,3,nan
check "--warmup" sph --warmup -1
check "--particles" sph --particles 10x
check "--particle-volume" sph --particle-volume 0.3
check "--particle-volume" sph --particle-volume 2
check "--volume" wavelet --volume 100000
check "--traversal-cost" kdtree --traversal-cost inf
check "--grid" raytrace --grid 0
check "--kernels" raytrace --kernels nope
check "unknown flag" reconstruct --no-such-flag
echo "bad_flags_test: $failures failure(s)"
exit $((failures > 0))
