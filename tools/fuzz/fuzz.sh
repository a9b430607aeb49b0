#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz: one per file reader and the scene parser; clang,
# ASan + UBSan, CUDA off) and runs each for a fixed budget. Fails when any target crashes, hangs
# (an input that takes over --timeout seconds), leaks, trips a sanitizer, runs out of memory or
# reports an error that names no file (tests/fuzz/fuzz_harness.h).
#
#   tools/fuzz/fuzz.sh                     # 60 s per target (CI gives a shorter --seconds)
#   tools/fuzz/fuzz.sh --seconds 1800      # a campaign: half an hour per target
#   tools/fuzz/fuzz.sh --runs 12000 vdb    # a fixed number of inputs, one target
#   tools/fuzz/fuzz.sh --jobs 2            # two targets at a time (one core each)
#
# Each target starts from its seeds (tests/fuzz/corpus/<target>) plus what earlier runs in this
# build folder found (<build>/corpus/<target>). A failing input is written to
# <build>/artifacts/<target>/ and reproduced with <build>/fuzz/fuzz_<target> <file>; once the
# reader is fixed, copy it to tests/fuzz/corpus/<target>/regress-<what> so every run replays it.
# Counts of successes and named / unnamed errors per target: <build>/stats.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=60
runs=""
timeout=10
jobs=1
build="${MENISCUS_FUZZ_BUILD:-build-fuzz}"
targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs wants a positive integer, got '$jobs'" >&2; exit 2; }
all_targets=(nrrd nhdr nifti vtk ply_ascii ply_binary obj vdb scene)
((${#targets[@]})) || targets=("${all_targets[@]}")

# -O1 and line tables only: a third less compile time than -O2 -g, and stack traces keep their lines.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMENISCUS_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DMENISCUS_CUDA=OFF \
  -DMENISCUS_SANITIZERS=address,undefined >/dev/null
cmake --build "$build" --target meniscus_fuzz_targets --parallel "$(nproc)"

stats="$(cd "$build" && pwd)/stats.txt"
: >"$stats"
for target in "${targets[@]}"; do
  [[ -d tests/fuzz/corpus/$target ]] || { echo "fuzz.sh: no target '$target' (${all_targets[*]})" >&2; exit 2; }
done

# One target: its log in <build>/artifacts/<target>/log.txt; says how it ended.
fuzz_one() {
  local target=$1
  mkdir -p "$build/corpus/$target" "$build/artifacts/$target"
  local limit=(-max_total_time="$seconds")
  [[ -n "$runs" ]] && limit=(-runs="$runs")
  local log="$build/artifacts/$target/log.txt"
  # The first corpus folder receives new inputs; the seeds in the repository are only read.
  # AddressSanitizer's quarantine of freed memory counts against -rss_limit_mb: inputs that each
  # allocate a volume within the readers' limits and free it filled the default one to 1.9 GB
  # in 3000 inputs (nifti), an out-of-memory report with 24 MB live. 16 MiB, as the sanitized
  # tests use (build-and-test.sh), still catches a use after a recent free (peak 313 -> 54 MB).
  if ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16" MENISCUS_FUZZ_STATS="$stats" "$build/fuzz/fuzz_$target" "${limit[@]}" -timeout="$timeout" \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target/" \
      "$build/corpus/$target" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    local budget="$seconds s"
    [[ -n "$runs" ]] && budget="$runs inputs"
    echo "fuzz.sh: $target ($budget, $timeout s per input): $(grep -E "^stat::number_of_executed_units" "$log" | tail -1)"
  else
    echo "fuzz.sh: $target FAILED; the end of $log:"
    tail -40 "$log"
    return 1
  fi
}

status=0
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
echo "fuzz.sh: counts per target (successes, errors naming the file, errors naming none):"
cat "$stats"
exit "$status"
