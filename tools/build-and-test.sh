#!/usr/bin/env bash
# Installs what is missing, builds everything (CUDA backends too when nvcc is found) and runs
# every test; then builds the CUDA backends again for the CPU execution layer
# (tests/support/cuda_cpu), under AddressSanitizer and UBSan, and runs the CPU == CUDA tests on
# it under each schedule. Idempotent: a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
jobs="$(nproc)"
status=0

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --parallel "$jobs"
# Validation layers are on in every Vulkan test; a validation error fails the test.
ctest --test-dir build --output-on-failure --parallel "$jobs" --timeout 900 || status=$?

# The .cu sources compiled by g++ and executed on the CPU: no GPU needed, so CUDA code runs on
# every CI run. Sanitized, so a kernel's out-of-bounds access or undefined behaviour fails it.
cmake -S . -B build-cuda-cpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMENISCUS_CUDA_ON_CPU=ON \
  -DMENISCUS_SANITIZERS=address,undefined
cmake --build build-cuda-cpu --parallel "$jobs"
# The Vulkan loader unloads lavapipe and the validation layer before LeakSanitizer looks, which
# would leave their process-lifetime allocations nameless and unsuppressible: preloaded, they stay.
libs="/usr/lib/$(gcc -print-multiarch)"
LD_PRELOAD="$(gcc -print-file-name=libasan.so) $libs/libvulkan_lvp.so $libs/libVkLayer_khronos_validation.so" \
  LSAN_OPTIONS="suppressions=$PWD/tests/support/cuda_cpu/leaks.supp:print_suppressions=0" \
  UBSAN_OPTIONS="print_stacktrace=1" \
  ctest --test-dir build-cuda-cpu --output-on-failure --parallel "$jobs" --timeout 600 || status=$?

exit "$status"
