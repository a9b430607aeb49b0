// Built when nvcc was not found: every CUDA interop request is a clear error, never a silent
// fallback (the caller chose CUDA explicitly, or resolve_backend would have picked the CPU).
#include <unistd.h>

#include <optional>
#include <string>

#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"
#include "engine/interop/cuda_device.h"

namespace meniscus {
namespace {
[[noreturn]] void absent() { throw DeviceError("Meniscus was built without CUDA (MENISCUS_CUDA=OFF or no nvcc)"); }
}  // namespace

namespace cuda_api {
void import_buffer(int fd, uint64_t, uint64_t, void**, void**) {
  close(fd);
  absent();
}
void release_buffer(void*, void*) noexcept {}
void* import_timeline(VkDevice, VkSemaphore, int fd) {
  if (fd >= 0) close(fd);
  absent();
}
void release_timeline(void*) noexcept {}
void wait_timeline(void*, uint64_t, void*) { absent(); }
void signal_timeline(void*, uint64_t, void*) { absent(); }
}  // namespace cuda_api

bool cuda_built() { return false; }

std::optional<int> find_cuda_device(const DeviceInfo&, std::string* why) {
  if (why) *why = "built without CUDA (MENISCUS_CUDA=OFF or no nvcc)";
  return std::nullopt;
}

}  // namespace meniscus
