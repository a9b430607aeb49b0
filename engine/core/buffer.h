#pragma once
// A VkBuffer with its own memory. Host-visible buffers stay mapped for their whole life.
#include <cstddef>
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

enum class MemoryUse {
  DeviceLocal,  // GPU only
  Upload,       // host-visible, coherent; CPU writes, GPU reads
  Readback,     // host-visible, cached if available; GPU writes, CPU reads
};

class Buffer {
 public:
  Buffer() = default;
  Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
         const char* debug_name = nullptr);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  // Non-null only for Upload/Readback buffers.
  void* mapped() const { return mapped_; }
  // For Readback memory that is not host-coherent: makes GPU writes visible to the CPU.
  void invalidate() const;
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

 private:
  void release();

  const Context* context_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
  bool coherent_ = true;
};

}  // namespace meniscus
