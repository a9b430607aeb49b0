#!/usr/bin/env bash
# Installs what is missing, then builds and tests in four configurations, each printing ctest's
# (or the fuzzer's) summary:
#   build/           the product (CUDA backends too when nvcc is found): every test but soak
#   build-asan/      clang, ASan + UBSan, CUDA off: the unit, simulation and render tests
#   build-cuda-cpu/  the .cu sources on the CPU execution layer (tests/support/cuda_cpu), g++,
#                    ASan + UBSan on the CUDA backends and the CUDA tests: every
#                    CPU == CUDA test, threads in a seeded random order
#   build-fuzz/      one libFuzzer target per reader and the scene parser, 10 s each
# Idempotent: a second run rebuilds only what changed. Exit status non-zero when any failed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
jobs="$(nproc)"
status=0
libs="/usr/lib/$(gcc -print-multiarch)"
# The sanitized runs keep lavapipe and the validation layer loaded to the end, so LeakSanitizer
# can name (and the suppressions match) their process-lifetime memory: tests/support/keep_loaded.
export MENISCUS_KEEP_LOADED="$libs/libvulkan_lvp.so:$libs/libVkLayer_khronos_validation.so"
leaks="suppressions=$PWD/tests/support/sanitizer_leaks.supp:print_suppressions=0"

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --parallel "$jobs"
# Validation layers are on in every Vulkan test; a validation error fails the test.
# Soak tests (label `soak`, tens of minutes) are run by hand: ctest -L soak.
ctest --test-dir build --output-on-failure --parallel "$jobs" --timeout 900 -LE soak || status=$?

# The same tests under AddressSanitizer and UBSan; `slow` ones (long runs whose code paths
# shorter tests take too, tagged [slow]: tests/CMakeLists.txt) only above. -O1 with line tables:
# quick to build, traces keep lines.
# A 16 MiB quarantine still catches a use after a recent free; the default 256 MiB makes
# lavapipe's large per-frame allocations five times slower.
# Every UBSan check but vptr (a call through a static_cast to the wrong polymorphic type), which
# alone costs a sixth of each file's sanitized compile under clang, a tenth under g++; a call
# through a freed object is AddressSanitizer's, and the fuzz targets keep vptr.
sanitizers=(-DMENISCUS_SANITIZERS=address,undefined -DMENISCUS_SANITIZERS_EXCEPT=vptr)
CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DMENISCUS_CUDA=OFF "${sanitizers[@]}"
cmake --build build-asan --parallel "$jobs"
LD_PRELOAD="$PWD/build-asan/libmeniscus_keep_loaded.so" LSAN_OPTIONS="$leaks" \
  ASAN_OPTIONS="quarantine_size_mb=16" UBSAN_OPTIONS="print_stacktrace=1" \
  ctest --test-dir build-asan --output-on-failure --parallel "$jobs" --timeout 900 -LE "soak|slow" || status=$?

# The .cu sources compiled by g++ and executed on the CPU: no GPU needed, so CUDA code runs on
# every CI run. The CUDA backends are sanitized, so a kernel's out-of-bounds access or undefined
# behaviour fails it; the CPU libraries they are compared with were sanitized above.
# One schedule here: a seeded random order of blocks and threads, which breaks code that leans on
# the launch order where the forward order would hide it. More by hand with
# -DMENISCUS_CUDA_CPU_SCHEDULES="forward;reverse;random:20261124". -O1: a third less compile time
# than -O2 under g++'s sanitizers for a fifth more test time.
cmake -S . -B build-cuda-cpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DMENISCUS_CUDA_ON_CPU=ON "${sanitizers[@]}" \
  -DMENISCUS_CUDA_CPU_SCHEDULES="random:20261124"
cmake --build build-cuda-cpu --parallel "$jobs"
LD_PRELOAD="$PWD/build-cuda-cpu/libmeniscus_keep_loaded.so" LSAN_OPTIONS="$leaks" \
  UBSAN_OPTIONS="print_stacktrace=1" \
  ctest --test-dir build-cuda-cpu --output-on-failure --parallel "$jobs" --timeout 600 || status=$?

# Every reader fuzzed for a short fixed budget, from its seeds and what earlier runs found;
# a crash, hang, sanitizer report or unnamed error fails (tools/fuzz/fuzz.sh).
bash tools/fuzz/fuzz.sh --seconds 10 --jobs "$jobs" || status=$?

exit "$status"
