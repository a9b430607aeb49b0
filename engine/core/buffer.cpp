#include "engine/core/buffer.h"

#include <utility>

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

// Each buffer gets its own allocation: the engine holds tens of long-lived buffers, far below
// maxMemoryAllocationCount, and transient frame-graph resources are pooled by the executor.
VkMemoryPropertyFlags preferred_flags(MemoryUse use) {
  switch (use) {
    case MemoryUse::DeviceLocal: return VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    case MemoryUse::Upload: return VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    case MemoryUse::Readback: return VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  }
  return 0;
}

VkMemoryPropertyFlags fallback_flags(MemoryUse use) {
  return use == MemoryUse::DeviceLocal ? 0 : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
}

}  // namespace

Buffer::Buffer(const Context& context, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
               const char* debug_name)
    : context_(&context), size_(size) {
  if (size == 0) throw DeviceError(std::string("buffer '") + (debug_name ? debug_name : "?") + "' has size 0");
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(vkCreateBuffer(context.device(), &info, nullptr, &buffer_));
  context.set_name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer_), debug_name);

  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context.device(), buffer_, &requirements);
  uint32_t type = context.find_memory_type(requirements.memoryTypeBits, preferred_flags(use));
  if (type == UINT32_MAX) type = context.find_memory_type(requirements.memoryTypeBits, fallback_flags(use));
  if (type == UINT32_MAX) throw DeviceError("no memory type for buffer");

  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = requirements.size;
  alloc.memoryTypeIndex = type;
  VK_CHECK(vkAllocateMemory(context.device(), &alloc, nullptr, &memory_));
  VK_CHECK(vkBindBufferMemory(context.device(), buffer_, memory_, 0));
  if (use != MemoryUse::DeviceLocal) {
    VK_CHECK(vkMapMemory(context.device(), memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
    VkPhysicalDeviceMemoryProperties properties;
    vkGetPhysicalDeviceMemoryProperties(context.physical_device(), &properties);
    coherent_ = properties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  }
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& other) noexcept { *this = std::move(other); }

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
    coherent_ = other.coherent_;
  }
  return *this;
}

void Buffer::invalidate() const {
  if (coherent_ || !mapped_) return;
  VkMappedMemoryRange range{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
  range.memory = memory_;
  range.size = VK_WHOLE_SIZE;
  VK_CHECK(vkInvalidateMappedMemoryRanges(context_->device(), 1, &range));
}

void Buffer::release() {
  if (!context_) return;
  if (buffer_) vkDestroyBuffer(context_->device(), buffer_, nullptr);
  if (memory_) vkFreeMemory(context_->device(), memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

}  // namespace meniscus
