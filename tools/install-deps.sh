#!/usr/bin/env bash
# Installs everything Meniscus needs to build, run and test on Debian 12.
# Idempotent: apt-get skips what is already there. Run as root (or with sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libvulkan-dev vulkan-validationlayers mesa-vulkan-drivers vulkan-tools
  glslc spirv-tools
  libglfw3-dev libimgui-dev
  catch2 libglm-dev libtomlplusplus-dev libpng-dev libtbb-dev libopenvdb-dev
  libnanoflann-dev
  libopenjp2-7-dev libgsl-dev
  # NIfTI volumes (.nii.gz) are gzip-compressed.
  zlib1g-dev
  # The MR brains of scenes/segment_brain.toml and meniscus-bench segment (Colin27, 16 MB).
  mricron-data
  xvfb xauth
  # The fuzz targets (tools/fuzz): clang, and libFuzzer in its runtime (only recommended by clang).
  clang libclang-rt-14-dev
  python3 python3-matplotlib python3-numpy
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo_cmd apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all packages present"
fi
