#!/usr/bin/env bash
# Installs what is missing, builds, and runs the default scene: in a window when a display is
# there, otherwise headless, ending with a PNG capture in out/.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --parallel "$(nproc)" --target meniscus
exec build/meniscus run scenes/dam_break.toml "$@"
