#pragma once
// SharedBuffer: the boundary between simulation stages and render passes.
//
//  - Host: host-visible, mapped memory. The CPU backend writes it directly; the frame graph
//    imports it with a HostWrite initial state.
//  - Cuda: device-local memory in a dedicated allocation, exported as an opaque POSIX fd and
//    imported into CUDA (cudaImportExternalMemory), so a CUDA kernel writes the very bytes the
//    render passes read. Ordering is the TimelineSemaphore's job.
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

enum class SharedMemory { Host, Cuda };

class SharedBuffer {
 public:
  SharedBuffer(const Context& context, VkDeviceSize size, SharedMemory kind, const char* debug_name = nullptr);
  ~SharedBuffer();
  SharedBuffer(const SharedBuffer&) = delete;
  SharedBuffer& operator=(const SharedBuffer&) = delete;

  VkBuffer buffer() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  SharedMemory kind() const { return kind_; }
  void* host_pointer() const { return host_; }  // Host kind only
  void* cuda_pointer() const { return cuda_; }  // Cuda kind only (a CUDA device pointer)

 private:
  const Context& context_;
  SharedMemory kind_;
  VkDeviceSize size_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  void* host_ = nullptr;
  void* cuda_ = nullptr;
  void* cuda_memory_ = nullptr;  // cudaExternalMemory_t, opaque so this header needs no CUDA
};

}  // namespace meniscus
