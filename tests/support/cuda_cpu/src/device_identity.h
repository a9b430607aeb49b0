#pragma once
// Which device the CPU execution layer claims to be. Its UUID is that of the Vulkan CPU device
// (lavapipe) when there is one: the emulated CUDA device runs on the same processor, and the
// engine's find_cuda_device() then pairs the two as it pairs an NVIDIA GPU's CUDA and Vulkan
// faces.
#include <array>
#include <cstdint>
#include <string>

namespace cuda_cpu {

struct DeviceIdentity {
  std::string name;
  std::array<uint8_t, 16> uuid{};
};

const DeviceIdentity& device_identity();

}  // namespace cuda_cpu
