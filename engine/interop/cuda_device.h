#pragma once
// Finding the CUDA device that is the same GPU as the Vulkan device (by UUID). Includable
// without CUDA headers; built from cuda_api_cuda.cpp or cuda_api_absent.cpp.
#include <optional>
#include <string>

namespace meniscus {

struct DeviceInfo;

// The CUDA ordinal whose cudaDeviceProp::uuid equals the Vulkan deviceUUID (and makes it the
// current CUDA device), or nullopt with the reason in `why`: CUDA not built, no CUDA device
// answers (no driver, "insufficient driver", no device), or no UUID matches.
std::optional<int> find_cuda_device(const DeviceInfo& vulkan_device, std::string* why);

// Whether this build has the CUDA backends (MENISCUS_HAS_CUDA).
bool cuda_built();

}  // namespace meniscus
