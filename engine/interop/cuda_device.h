#pragma once
// Finding the CUDA device that is the same GPU as the Vulkan device (by UUID).
#include <optional>
#include <string>

namespace meniscus {

struct DeviceInfo;

// The CUDA ordinal of the Vulkan device, or nullopt with the reason in `why`: CUDA not built,
// no CUDA device answers (no driver, "insufficient driver"), or no UUID matches.
std::optional<int> find_cuda_device(const DeviceInfo& vulkan_device, std::string* why);

bool cuda_built();

}  // namespace meniscus
