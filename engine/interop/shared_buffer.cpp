#include "engine/interop/shared_buffer.h"

#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_api.h"
#include "engine/interop/cuda_device.h"

namespace meniscus {

const char* shared_memory_name(SharedMemory kind) { return kind == SharedMemory::Cuda ? "cuda" : "host"; }

SharedBuffer::SharedBuffer(const Context& context, VkDeviceSize size, SharedMemory kind, const char* debug_name)
    : context_(context), kind_(kind), size_(size) {
  const std::string label = std::string("shared buffer '") + (debug_name ? debug_name : "?") + "'";
  if (size == 0) throw DeviceError(label + " has size 0");
  if (kind == SharedMemory::Cuda) {
    // Checked before any Vulkan object exists, so the reason given is the first one that holds.
    if (!cuda_built()) throw DeviceError(label + ": Meniscus was built without CUDA (MENISCUS_CUDA=OFF or no nvcc)");
    if (!context.info().external_memory_fd)
      throw DeviceError(label + ": device " + context.info().name +
                        " cannot export memory (needs VK_KHR_external_memory_fd)");
  }
  // The destructor does not run for a throwing constructor: release what exists so far.
  try {
    create(debug_name);
  } catch (...) {
    release();
    throw;
  }
}

void SharedBuffer::create(const char* debug_name) {
  const bool exported = kind_ == SharedMemory::Cuda;
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.pNext = exported ? &external : nullptr;
  info.size = size_;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VK_CHECK(vkCreateBuffer(context_.device(), &info, nullptr, &buffer_));
  context_.set_name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buffer_), debug_name);

  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(context_.device(), buffer_, &requirements);
  const VkMemoryPropertyFlags flags = exported ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                                               : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const uint32_t type = context_.find_memory_type(requirements.memoryTypeBits, flags);
  if (type == UINT32_MAX)
    throw DeviceError(std::string("no ") + (exported ? "device-local" : "host-visible coherent") +
                      " memory type for a shared buffer on " + context_.info().name);

  // CUDA imports exported memory as one dedicated allocation (cudaExternalMemoryDedicated).
  VkMemoryDedicatedAllocateInfo dedicated{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.buffer = buffer_;
  VkExportMemoryAllocateInfo export_info{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  export_info.pNext = &dedicated;
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.pNext = exported ? &export_info : nullptr;
  alloc.allocationSize = requirements.size;
  alloc.memoryTypeIndex = type;
  VK_CHECK(vkAllocateMemory(context_.device(), &alloc, nullptr, &memory_));
  allocation_size_ = requirements.size;
  VK_CHECK(vkBindBufferMemory(context_.device(), buffer_, memory_, 0));

  if (!exported) {
    VK_CHECK(vkMapMemory(context_.device(), memory_, 0, VK_WHOLE_SIZE, 0, &host_));
    return;
  }
  auto get_fd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(context_.device(), "vkGetMemoryFdKHR"));
  if (!get_fd) throw DeviceError("vkGetMemoryFdKHR is not available on " + context_.info().name);
  VkMemoryGetFdInfoKHR fd_info{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  fd_info.memory = memory_;
  fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  VK_CHECK(get_fd(context_.device(), &fd_info, &fd));
  cuda_api::import_buffer(fd, requirements.size, size_, &cuda_memory_, &cuda_);  // takes the fd
}

void SharedBuffer::release() noexcept {
  // CUDA lets go first (mapped pointer, then the external memory), then Vulkan frees the memory.
  if (cuda_memory_) cuda_api::release_buffer(cuda_memory_, cuda_);
  cuda_memory_ = nullptr;
  cuda_ = nullptr;
  if (host_) vkUnmapMemory(context_.device(), memory_);
  host_ = nullptr;
  if (buffer_) vkDestroyBuffer(context_.device(), buffer_, nullptr);
  if (memory_) vkFreeMemory(context_.device(), memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

SharedBuffer::~SharedBuffer() { release(); }

}  // namespace meniscus
