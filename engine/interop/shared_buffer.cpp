#include "engine/interop/shared_buffer.h"

#include <unistd.h>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"

namespace meniscus {

SharedBuffer::SharedBuffer(const Context& context, VkDeviceSize size, SharedMemory kind, const char* debug_name)
    : context_(context), kind_(kind), size_(size) {
  if (size == 0) throw DeviceError(std::string("shared buffer '") + (debug_name ? debug_name : "?") + "' has size 0");
  const bool exported = kind == SharedMemory::Cuda;
  if (exported && !context.info().external_memory_fd)
    throw DeviceError("device " + context.info().name + " cannot export memory (VK_KHR_external_memory_fd)");

  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = exported ? &external : nullptr;
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VK_CHECK(vkCreateBuffer(context.device(), &info, nullptr, &buffer_));
  context.set_name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer_), debug_name);

  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context.device(), buffer_, &requirements);
  const VkMemoryPropertyFlags flags = exported ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                                               : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const uint32_t type = context.find_memory_type(requirements.memoryTypeBits, flags);
  if (type == UINT32_MAX) throw DeviceError("no memory type for shared buffer");

  // CUDA requires the exported memory to be a dedicated allocation of exactly one buffer.
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = buffer_;
  VkExportMemoryAllocateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  export_info.pNext = &dedicated;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.pNext = exported ? &export_info : nullptr;
  alloc.allocationSize = requirements.size;
  alloc.memoryTypeIndex = type;
  VK_CHECK(vkAllocateMemory(context.device(), &alloc, nullptr, &memory_));
  VK_CHECK(vkBindBufferMemory(context.device(), buffer_, memory_, 0));

  if (!exported) {
    VK_CHECK(vkMapMemory(context.device(), memory_, 0, VK_WHOLE_SIZE, 0, &host_));
    return;
  }
  auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(context.device(), "vkGetMemoryFdKHR"));
  VkMemoryGetFdInfoKHR fd_info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  fd_info.memory = memory_;
  fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  VK_CHECK(get_fd(context.device(), &fd_info, &fd));
  // On success CUDA owns the fd; on failure we close it.
  try {
    cuda_api::import_buffer(fd, requirements.size, size, &cuda_memory_, &cuda_);
  } catch (...) {
    close(fd);
    throw;
  }
}

SharedBuffer::~SharedBuffer() {
  if (cuda_memory_) cuda_api::release_buffer(cuda_memory_, cuda_);
  if (host_) vkUnmapMemory(context_.device(), memory_);
  vkDestroyBuffer(context_.device(), buffer_, nullptr);
  vkFreeMemory(context_.device(), memory_, nullptr);
}

}  // namespace meniscus
