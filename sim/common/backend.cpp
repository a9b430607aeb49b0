#include "sim/common/backend.h"

#include <string>

#include "engine/core/error.h"
#include "engine/core/log.h"
#include "engine/interop/cuda_device.h"

namespace meniscus::sim {

const char* backend_name(SimBackend backend) { return backend == SimBackend::Cuda ? "cuda" : "cpu"; }

SimBackend resolve_backend(std::string_view requested, const DeviceInfo& vulkan_device) {
  if (requested == "cpu") return SimBackend::Cpu;
  std::string why;
  const bool cuda = find_cuda_device(vulkan_device, &why).has_value();
  if (requested == "cuda") {
    if (!cuda) throw DeviceError("--sim cuda: " + why);
    return SimBackend::Cuda;
  }
  if (requested != "auto") throw InputError("--sim: expected cpu, cuda or auto, got '" + std::string(requested) + "'");
  if (!cuda) log::info("simulation on the CPU backend (" + why + ")");
  return cuda ? SimBackend::Cuda : SimBackend::Cpu;
}

}  // namespace meniscus::sim
