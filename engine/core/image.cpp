#include "engine/core/image.h"

#include <utility>

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus {

bool is_depth_format(VkFormat format) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
      return true;
    default:
      return false;
  }
}

VkImageAspectFlags aspect_of(VkFormat format) {
  return is_depth_format(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

Image::Image(const Context& context, const ImageSpec& spec, const char* debug_name)
    : context_(&context), spec_(spec) {
  if (spec.cube && spec.layers != 6) throw DeviceError("cube image needs 6 layers");
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = spec.cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = spec.format;
  info.extent = {spec.extent.width, spec.extent.height, 1};
  info.mipLevels = spec.mip_levels;
  info.arrayLayers = spec.layers;
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = spec.usage;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VK_CHECK(vkCreateImage(context.device(), &info, nullptr, &image_));
  context.set_name(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(image_), debug_name);

  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(context.device(), image_, &requirements);
  uint32_t type = context.find_memory_type(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (type == UINT32_MAX) type = context.find_memory_type(requirements.memoryTypeBits, 0);
  VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  alloc.allocationSize = requirements.size;
  alloc.memoryTypeIndex = type;
  VK_CHECK(vkAllocateMemory(context.device(), &alloc, nullptr, &memory_));
  VK_CHECK(vkBindImageMemory(context.device(), image_, memory_, 0));

  VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  view.image = image_;
  view.viewType = spec.cube ? VK_IMAGE_VIEW_TYPE_CUBE
                  : spec.layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                                    : VK_IMAGE_VIEW_TYPE_2D;
  view.format = spec.format;
  view.subresourceRange = {aspect_of(spec.format), 0, spec.mip_levels, 0, spec.layers};
  VK_CHECK(vkCreateImageView(context.device(), &view, nullptr, &view_));
  if (spec.cube) {
    view.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    VK_CHECK(vkCreateImageView(context.device(), &view, nullptr, &array_view_));
  }
}

Image::~Image() { release(); }

Image::Image(Image&& other) noexcept { *this = std::move(other); }

Image& Image::operator=(Image&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    spec_ = other.spec_;
    image_ = std::exchange(other.image_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    view_ = std::exchange(other.view_, VK_NULL_HANDLE);
    array_view_ = std::exchange(other.array_view_, VK_NULL_HANDLE);
  }
  return *this;
}

void Image::release() {
  if (!context_) return;
  if (array_view_) vkDestroyImageView(context_->device(), array_view_, nullptr);
  if (view_) vkDestroyImageView(context_->device(), view_, nullptr);
  if (image_) vkDestroyImage(context_->device(), image_, nullptr);
  if (memory_) vkFreeMemory(context_->device(), memory_, nullptr);
  view_ = VK_NULL_HANDLE;
  array_view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

}  // namespace meniscus
