#pragma once
// SharedBuffer: the boundary between simulation stages and render passes.
//
//  - Host: host-visible, coherent, mapped memory. The CPU backend writes it directly
//    (host_pointer()); the frame graph imports it with a HostWrite initial state.
//  - Cuda: device-local memory in a dedicated allocation, exported as an opaque POSIX fd and
//    imported into CUDA (cudaImportExternalMemory), so a CUDA kernel writes the very bytes the
//    render passes read (cuda_pointer()). Ordering is the TimelineSemaphore's job.
//
// Usage is STORAGE | VERTEX | TRANSFER_SRC | TRANSFER_DST for both kinds. The Cuda kind throws
// a DeviceError when Meniscus was built without CUDA, when the device cannot export memory, or
// when CUDA cannot import it (no CUDA device); it never falls back to the host kind silently.
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

enum class SharedMemory { Host, Cuda };

const char* shared_memory_name(SharedMemory kind);  // "host" / "cuda"

class SharedBuffer {
 public:
  SharedBuffer(const Context& context, VkDeviceSize size, SharedMemory kind, const char* debug_name = nullptr);
  ~SharedBuffer();
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;

  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // The size of the dedicated allocation (>= size()); what CUDA imported for the Cuda kind.
  VkDeviceSize allocation_size() const { return allocation_size_; }
  SharedMemory kind() const { return kind_; }
  void* host_pointer() const { return host_; }  // Host kind only, else null
  void* cuda_pointer() const { return cuda_; }  // Cuda kind only (a CUDA device pointer), else null

 private:
  void create(const char* debug_name);
  void release() noexcept;

  const Context& context_;
  SharedMemory kind_;
  VkDeviceSize size_;
  VkDeviceSize allocation_size_ = 0;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* host_ = nullptr;
  void* cuda_ = nullptr;
  void* cuda_memory_ = nullptr;  // cudaExternalMemory_t, opaque so this header needs no CUDA
};

}  // namespace meniscus
