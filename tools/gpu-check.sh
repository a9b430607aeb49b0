#!/usr/bin/env bash
# Every real-GPU check of the project in one command. Two phases, because the lent GPU machine
# has the driver and CUDA but none of our Debian packages (../shared/device/README.md):
#
#   tools/gpu-check.sh [bundle [DIR]]  here: build with nvcc for Hopper into build-gpu, pack the
#                                      CUDA tests and meniscus-bench with their libraries, the
#                                      SPIR-V and the data into DIR (default .gpu), and print the
#                                      device tool's run line
#   DIR/gpu-check.sh run [OUT]         there: each CUDA test plain, the benchmarks' GPU lines,
#                                      then each test under compute-sanitizer memcheck and
#                                      racecheck; writes OUT/summary.json and OUT/summary.md
#                                      (OUT: $OUT, else ./gpu-check-out)
#
# run exits 0 when everything passed, 1 when a test or benchmark failed or timed out, 2 when
# there is no NVIDIA GPU or no bundle, 3 when nothing failed but a test skipped (exit 77) or a
# step was cut for time: on a GPU machine a skip means the GPU went unchecked.
set -euo pipefail

SELF=$(realpath "${BASH_SOURCE[0]}")  # before any cd: the bundle gets a copy of this file
# The device tool ends a command after 10 minutes; 9 leaves time to unpack and write the summary.
BUDGET_S=${GPU_CHECK_BUDGET_S:-540}
# Per-step limits, so one hung program costs minutes, not the whole budget. A CUDA test should
# take seconds on an H200 (5-45 s on the CPU execution layer with 2 cores); sanitizers slow
# kernels by 10-100x, so they get more, and run last, where running out of time costs least.
PLAIN_CAP_S=120
BENCH_CAP_S=150
SANITIZER_CAP_S=150
KILL_GRACE_S=10  # after SIGTERM, before SIGKILL
MIN_STEP_S=10    # a step given less than this is recorded as not run rather than started
SKIP_CODE=77     # MENISCUS_SKIP_CODE (tests/CMakeLists.txt)
# The benchmark lines that involve a GPU, with the CPU figures and peers of the same run beside
# them (a speed claim is a ratio against a peer measured in the same run, DESIGN.md). Sizes are
# estimates for about 3 minutes in all on an H200 with 16 cores, not measurements:
#   mc        CUDA and Vulkan HistoPyramid on Cayley 128^3-512^3 and the CT head; --check fails
#             the step when a GPU's vertex count differs from the CPU's
#   levelset  GPU-STL sphere mean-curvature flow, R 100/200/400 voxels (the default radii), on
#             float32 and 16-bit fixed-point tiles; Lucy is CPU-only and the costliest case, so
#             it is left out
#   sph       SPH ms per step, CPU and CUDA, 64K-1M particles (the collapsing block); the
#             convergence-bound cases (tall column, splash) at 256K, CUDA only (their CPU
#             warm-up of hundreds of steps would take minutes)
#   fluid     screen-space fluid passes on the NVIDIA Vulkan device, 1080p
#   segment   the GPU-STL segmentation of the Colin27 white matter, 1 mm (181x217x181) and
#             0.5 mm (ch2better, 301x370x316), to ITK's tolerance 0.005 (issue 14: under 1 s and
#             5 s); ITK and the CPU figures are measured on a CPU machine (no ITK here)
#   wavelet   CPU and CUDA lifting, 1920x1080 (three levels) and 512^3 (issue 17: 9/7 under
#             0.2 ms and 20 ms); OpenJPEG and GSL beside them
#   mip       the MIPs of the largest volume we have (ch2better, 301x370x316) at 512^2 and 1024^2
#             with the coefficient stream built on CUDA; streaming frame time and median error
#             per budget (issue 17: 60 fps at median error <= 4 grey levels); no VTK (no display)
#   raytrace  per frame, the kd-tree rebuilt and the Whitted trace at 1024^2 (primary, shadow,
#             two bounces) of the dynamic water surface and Lucy, then of a 1M-triangle water
#             surface (issue 16: under 16 ms), on the CUDA device, the CPU's beside it; the
#             lines' hits should agree (the CUDA tests check the trees and the images); each
#             also times the frame's caustic on its backend (photons, their kd-tree, the KNN
#             estimate: caustic_ms), whose caustic_mean should agree
# kdtree and reconstruct have no GPU line (the CUDA kd-tree times are printed by its test).
BENCHES=(
  "mc --sizes 128,256,512 --repeat 5 --check"
  "levelset --steps 10 --lucy-resolution 0"
  "sph --particles 65536,262144,1048576 --backends cpu,cuda --cases collapsing_block"
  "sph --particles 262144 --backends cuda --cases tall_column,splash"
  "fluid --size 1920x1080 --particles 65536,1048576 --repeat 5"
  "segment --volume data:mricron/ch2.nii.gz --seed 110,108,100,3 --lower 95 --upper 140 --rms 0.005 --itk none --sim cuda"
  "segment --volume data:mricron/ch2better.nii.gz --seed 150,153,184,3 --lower 95 --upper 140 --rms 0.005 --itk none --sim cuda"
  "wavelet --size 1920x1080 --volume 512 --levels 3 --wavelets 5/3,9/7 --backends cpu,cuda --repeat 5"
  "mip --volume data:mricron/ch2better.nii.gz --max-depth 512 --budgets 0.01,0.05,0.2,1 --vtk none --sim cuda --check"
  "raytrace --cases water,lucy --frames 3"
  "raytrace --cases water --grid 512 --frames 3"
)
MODES=(plain memcheck racecheck)

die() {
  echo "gpu-check: $*" >&2
  exit 2
}

# ---- bundle (here) ----------------------------------------------------------------------------

# The CUDA tests are what ctest labels `cuda` (meniscus_add_cuda_test, interop.cuda,
# profile.cuda_stage_timer), so a new one is bundled without editing this script. Each is run
# without arguments, as ctest runs them.
cuda_test_executables() {
  ctest --test-dir build-gpu -N -V -L '^cuda$' | sed -n 's/^[0-9]*: Test command: \([^ ]*\).*/\1/p' | sort -u
}

build_gpu() {
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DMENISCUS_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90
  mapfile -t CUDA_TESTS < <(cuda_test_executables)
  ((${#CUDA_TESTS[@]})) || die "ctest lists no test labelled cuda in build-gpu"
  cmake --build build-gpu --parallel "$(nproc)" --target meniscus-bench "${CUDA_TESTS[@]##*/}"
}

# The data directory find_data_file (engine/core/data_files.cpp) would search here.
data_root() {
  local dir
  for dir in "${MENISCUS_DATA:-}" ../shared/data scenes/data; do
    [[ -n $dir && -d $dir ]] && echo "$dir" && return
  done
  die "no data directory (\$MENISCUS_DATA, ../shared/data, scenes/data)"
}

# Stages bin/ lib/ layers/ env.sh (bundle.sh), shaders/, data/ and tests.txt in build-gpu/bundle.
stage_bundle() {
  local stage=build-gpu/bundle data
  data=$(data_root)
  rm -rf "$stage"
  # Its one line of output, the size before stripping and packing, would mislead.
  ../shared/device/bundle.sh "$stage" "${CUDA_TESTS[@]}" build-gpu/meniscus-bench >/dev/null
  strip "$stage"/bin/*
  mkdir "$stage/shaders"
  cp build-gpu/shaders/*.spv "$stage/shaders/"
  cp -rL "$data" "$stage/data"
  # The MR brains of the segmentation benchmark (mricron-data, installed by install-deps.sh).
  if [[ -d /usr/share/mricron/templates ]]; then
    mkdir -p "$stage/data/mricron"
    cp /usr/share/mricron/templates/ch2.nii.gz /usr/share/mricron/templates/ch2better.nii.gz "$stage/data/mricron/"
  fi
  printf '%s\n' "${CUDA_TESTS[@]##*/}" >"$stage/tests.txt"
  # The binaries look in these first (engine/core/shader.cpp, engine/core/data_files.cpp); their
  # compiled-in fallbacks are paths on this machine. Ending on an export also gives the file a
  # zero status, so sourcing it under set -e survives bundle.sh's `[ -e ] && export` tests.
  cat >>"$stage/env.sh" <<'ENV'
export MENISCUS_SHADER_DIR="$here/shaders"
export MENISCUS_DATA="$here/data"
ENV
}

# OpenVDB (57 MB) and the validation layer (22 MB) alone exceed the 64 MiB the device tool
# carries; gzip (on every Debian and Ubuntu) brings the whole bundle to about a third.
pack_bundle() {
  local dir=$1 bytes
  mkdir -p "$dir"
  tar -C build-gpu/bundle -czf "$dir/payload.tar.gz" .
  cp "$SELF" "$dir/gpu-check.sh"
  bytes=$(du -sb "$dir" | cut -f1)
  ((bytes < 64 << 20)) || die "$dir holds $((bytes >> 20)) MiB (the device tool carries 64 MiB): remove all but payload.tar.gz and gpu-check.sh"
  echo "gpu-check: $dir: $((bytes >> 20)) MiB"
}

bundle_phase() {
  local root dir rel
  root=$(dirname "$(dirname "$SELF")")
  dir=$(realpath -m "${1:-$root/.gpu}")
  rel=$(realpath -m --relative-to="$root" "$dir")
  [[ $rel != ..* ]] || die "$dir is outside the repository; the device tool carries only paths inside it"
  cd "$root"
  build_gpu
  stage_bundle
  pack_bundle "$dir"
  echo "device run: {\"command\": \"bash $rel/gpu-check.sh run\", \"carry\": [\"$rel\"], \"timeout_s\": 600}"
}

# ---- run (there) ------------------------------------------------------------------------------

declare -A RESULT EXIT_CODE MILLIS NOTE

now_ms() { echo $(($(date +%s%N) / 1000000)); }

record() {  # record KEY RESULT EXIT MILLIS NOTE
  RESULT[$1]=$2 EXIT_CODE[$1]=$3 MILLIS[$1]=$4 NOTE[$1]=$5
  printf '%-9s %-34s %-8s %6d.%d s  %s\n' "${1#*/}" "${1%/*}" "$2" $(($4 / 1000)) $(($4 % 1000 / 100)) "$5"
}

# A few words from a step's log for the tables: the checks' tally, the sanitizer's verdict, why a
# test skipped, or how many benchmark lines came out.
log_note() {
  local kind=$1 rc=$2 log=$3
  if [[ $rc == "$SKIP_CODE" ]]; then
    grep -m 1 -o 'SKIP.*' "$log" || true
    return
  fi
  case $kind in
    plain) echo "$(grep -c '^PASS' "$log" || true) PASS, $(grep -c '^FAIL' "$log" || true) FAIL" ;;
    memcheck | racecheck) grep -o '[A-Z]* SUMMARY: .*' "$log" | tail -n 1 || true ;;
    bench) echo "$(grep -c '^{.*}$' "$log" || true) JSON lines, $(grep -c '"skipped"' "$log" || true) skipped" ;;
  esac
}

# run_step KEY KIND LOG CAP COMMAND...: COMMAND under `timeout`, stopped at CAP seconds or at the
# budget's end, whichever is first; output to LOG; result recorded under KEY: passed, failed,
# skipped, timeout (its own cap: a hang, so a failure), cut (the budget's end: not a failure,
# but the check is incomplete) or not-run.
run_step() {
  local key=$1 kind=$2 log=$3 cap=$4 left limit start rc=0 result note
  shift 4
  left=$((DEADLINE - SECONDS - KILL_GRACE_S))
  limit=$((cap < left ? cap : left))
  if ((limit < MIN_STEP_S)); then
    record "$key" not-run null 0 "no time left in the ${BUDGET_S} s budget"
    return
  fi
  start=$(now_ms)
  timeout --kill-after="$KILL_GRACE_S" "$limit" "$@" >"$log" 2>&1 || rc=$?
  case $rc in
    0) result=passed ;;
    "$SKIP_CODE") result=skipped ;;
    124 | 137) result=timeout ;;
    *) result=failed ;;
  esac
  if [[ $result == timeout ]] && ((limit < cap)); then result="cut"; fi
  # A benchmark reports a GPU it could not use as a "skipped" line and still exits 0.
  if [[ $result == passed && $kind == bench ]] && grep -q '"skipped"' "$log"; then result=skipped; fi
  note=$(log_note "$kind" "$rc" "$log")
  case $result in timeout | cut) note="stopped after $limit s; $note" ;; esac
  record "$key" "$result" "$rc" $(($(now_ms) - start)) "$note"
  case $result in failed | timeout) tail -n 20 "$log" | sed 's/^/    | /' ;; esac
}

run_tests() {
  local mode=$1 cap=$2 test
  shift 2
  for test in "${TESTS[@]}"; do
    run_step "$test/$mode" "$mode" "$OUT_DIR/logs/$test.$mode.log" "$cap" "$@" "$BUNDLE/bin/$test"
  done
}

run_benches() {
  local spec args log
  : >"$OUT_DIR/bench.jsonl"
  for spec in "${BENCHES[@]}"; do
    read -ra args <<<"$spec"
    log=$OUT_DIR/logs/bench-${args[0]}.log
    run_step "${args[0]}/bench" bench "$log" "$BENCH_CAP_S" "$BUNDLE/bin/meniscus-bench" "${args[@]}"
    [[ ${RESULT[${args[0]}/bench]} == not-run ]] || grep '^{.*}$' "$log" >>"$OUT_DIR/bench.jsonl" || true
  done
}

run_sanitizers() {
  local mode test
  for mode in memcheck racecheck; do
    if [[ -x $SANITIZER ]]; then
      # --error-exitcode: a finding fails the step even when the test itself exits 0 (or 77).
      run_tests "$mode" "$SANITIZER_CAP_S" "$SANITIZER" --tool "$mode" --error-exitcode 86 --print-limit 20
    else
      for test in "${TESTS[@]}"; do record "$test/$mode" not-run null 0 "compute-sanitizer not found"; done
    fi
  done
}

json_str() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//[$'\t\n\r']/ }
  printf '"%s"' "$s"
}

step_json() {
  local key=$1 ms=${MILLIS[$1]}
  printf '{"result": "%s", "exit": %s, "seconds": %d.%03d, "note": %s}' \
    "${RESULT[$key]}" "${EXIT_CODE[$key]}" $((ms / 1000)) $((ms % 1000)) "$(json_str "${NOTE[$key]}")"
}

overall_status() {
  local result status=passed
  for result in "${RESULT[@]}"; do
    case $result in
      failed | timeout) status=failed ;;
      skipped | cut | not-run) [[ $status == failed ]] || status=incomplete ;;
    esac
  done
  echo "$status"
}

write_summary_json() {
  local status=$1 test mode spec sep
  {
    printf '{\n  "gpu": %s,\n  "driver": %s,\n  "sanitizer": %s,\n' \
      "$(json_str "$GPU_NAME")" "$(json_str "$DRIVER")" "$(json_str "$SANITIZER_VERSION")"
    printf '  "status": "%s",\n  "seconds": %d,\n  "budget_seconds": %d,\n  "tests": [\n' "$status" "$SECONDS" "$BUDGET_S"
    sep=
    for test in "${TESTS[@]}"; do
      printf '%s    {"name": "%s"' "$sep" "$test"
      for mode in "${MODES[@]}"; do printf ', "%s": %s' "$mode" "$(step_json "$test/$mode")"; done
      printf '}'
      sep=$',\n'
    done
    printf '\n  ],\n  "benchmarks": [\n'
    sep=
    for spec in "${BENCHES[@]}"; do
      printf '%s    {"name": "%s", "command": %s, "run": %s}' "$sep" "${spec%% *}" \
        "$(json_str "meniscus-bench $spec")" "$(step_json "${spec%% *}/bench")"
      sep=$',\n'
    done
    printf '\n  ],\n  "bench_lines": [\n'
    sed 's/^/    /; $!s/$/,/' "$OUT_DIR/bench.jsonl"
    printf '  ]\n}\n'
  } >"$OUT_DIR/summary.json"
}

md_cell() {
  local ms=${MILLIS[$1]}
  echo "${RESULT[$1]} $((ms / 1000)).$((ms % 1000 / 100)) s${NOTE[$1]:+ (${NOTE[$1]})}"
}

write_summary_md() {
  local status=$1 test spec
  {
    echo "# GPU check: $GPU_NAME, driver $DRIVER: $status"
    echo
    echo "$SECONDS s of a ${BUDGET_S} s budget; $SANITIZER_VERSION. Logs: logs/; benchmark lines: bench.jsonl."
    echo
    echo "| test | plain | memcheck | racecheck |"
    echo "|---|---|---|---|"
    for test in "${TESTS[@]}"; do
      echo "| $test | $(md_cell "$test/plain") | $(md_cell "$test/memcheck") | $(md_cell "$test/racecheck") |"
    done
    echo
    echo "| benchmark | run |"
    echo "|---|---|"
    for spec in "${BENCHES[@]}"; do echo "| \`meniscus-bench $spec\` | $(md_cell "${spec%% *}/bench") |"; done
    echo
    echo "## Benchmark lines"
    echo
    echo '```json'
    cat "$OUT_DIR/bench.jsonl"
    echo '```'
  } >"$OUT_DIR/summary.md"
}

# The bundle is unpacked outside the carried folder, which stays as the device tool copied it.
unpack_bundle() {
  local payload
  payload=$(dirname "$SELF")/payload.tar.gz
  [[ -f $payload ]] || die "no $payload: make one with tools/gpu-check.sh bundle"
  BUNDLE=$(mktemp -d)
  trap 'rm -rf "$BUNDLE"' EXIT
  tar -C "$BUNDLE" -xzf "$payload"
  mapfile -t TESTS <"$BUNDLE/tests.txt"
}

gpu_facts() {
  local line
  nvidia-smi -L || die "no NVIDIA GPU here (nvidia-smi -L failed)"
  line=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1)
  GPU_NAME=${line%%, *} DRIVER=${line##*, }
  echo "driver $DRIVER"
  SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  SANITIZER_VERSION=$("$SANITIZER" --version 2>/dev/null | tail -n 1 || echo "compute-sanitizer not found")
}

run_phase() {
  command -v nvidia-smi >/dev/null || die "no NVIDIA GPU here (nvidia-smi not found)"
  OUT_DIR=$(realpath -m "${1:-${OUT:-gpu-check-out}}")
  DEADLINE=$((SECONDS + BUDGET_S))
  gpu_facts
  unpack_bundle
  mkdir -p "$OUT_DIR/logs"
  . "$BUNDLE/env.sh"
  echo "Vulkan ICD: ${VK_DRIVER_FILES:-no NVIDIA manifest found by env.sh}"
  # Plain tests, then benchmarks, then sanitizers: if time runs out, the slowest and least
  # predictable runs are the ones cut, and benchmark times are never taken under a sanitizer.
  run_tests plain "$PLAIN_CAP_S"
  # The segmentation on the benchmark's real scans, CUDA against the CPU (issue 14's Dice): the
  # CPU side takes about 45 s of the cap on 16 cores.
  run_step "segmentation-real-scans/plain" plain "$OUT_DIR/logs/segmentation-real-scans.log" "$PLAIN_CAP_S" \
    "$BUNDLE/bin/meniscus-segmentation-cuda-tests" --real-data
  run_benches
  run_sanitizers
  local status
  status=$(overall_status)
  write_summary_json "$status"
  write_summary_md "$status"
  echo
  sed '/^## Benchmark lines/,$d' "$OUT_DIR/summary.md"
  echo "full summary: $OUT_DIR/summary.md, $OUT_DIR/summary.json"
  case $status in
    passed) exit 0 ;;
    failed) exit 1 ;;
    *) exit 3 ;;
  esac
}

case ${1:-bundle} in
  bundle) bundle_phase "${@:2}" ;;
  run) run_phase "${@:2}" ;;
  *) die "usage: tools/gpu-check.sh [bundle [DIR]] | DIR/gpu-check.sh run [OUT]" ;;
esac
