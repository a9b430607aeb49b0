#pragma once
// Which implementation a simulation stage runs on.
#include <string_view>

namespace meniscus {
struct DeviceInfo;
}

namespace meniscus::sim {

enum class SimBackend { Cpu, Cuda };

const char* backend_name(SimBackend backend);

// `requested` is the --sim flag: "cpu", "cuda" or "auto". auto picks CUDA when a CUDA device
// matches the Vulkan device, else the CPU with a one-line notice; "cuda" without one throws a
// DeviceError that says why.
SimBackend resolve_backend(std::string_view requested, const DeviceInfo& vulkan_device);

}  // namespace meniscus::sim
