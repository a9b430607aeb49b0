#!/usr/bin/env bash
# Installs what is missing, builds everything (CUDA backends too when nvcc is found) and runs
# every test. Idempotent: a second run rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --parallel "$(nproc)"
# Validation layers are on in every Vulkan test; a validation error fails the test.
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 900
