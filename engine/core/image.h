#pragma once
// A device-local 2D image (or layered / cube image) with one default view.
#include <cstdint>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

struct ImageSpec {
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkExtent2D extent{1, 1};
  uint32_t layers = 1;
  uint32_t mip_levels = 1;
  bool cube = false;  // layers must be 6; the default view is VK_IMAGE_VIEW_TYPE_CUBE
  VkImageUsageFlags usage = 0;
};

bool is_depth_format(VkFormat format);
VkImageAspectFlags aspect_of(VkFormat format);

class Image {
 public:
  Image() = default;
  Image(const Context& context, const ImageSpec& spec, const char* debug_name = nullptr);
  ~Image();
  Image(Image&& other) noexcept;
  Image& operator=(Image&& other) noexcept;
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  // A 2D-array view of a cube image, for compute shaders that write its faces as layers;
  // the default view for any other image.
  VkImageView storage_view() const { return array_view_ ? array_view_ : view_; }
  const ImageSpec& spec() const { return spec_; }
  explicit operator bool() const { return image_ != VK_NULL_HANDLE; }

 private:
  void release();

  const Context* context_ = nullptr;
  ImageSpec spec_{};
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkImageView array_view_ = VK_NULL_HANDLE;
};

}  // namespace meniscus
