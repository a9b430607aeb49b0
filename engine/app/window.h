#pragma once
// A GLFW window with its Vulkan surface and swapchain. The swapchain is recreated whenever the
// window's size changes or presentation reports it out of date.
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

struct GLFWwindow;

namespace meniscus {

class Context;

// True when GLFW can open a window here (a display server answers).
bool display_available();
// Instance extensions the window system needs; call before creating the Context.
std::vector<std::string> window_instance_extensions();

struct AcquiredImage {
  uint32_t index;
  VkImage image;
  VkImageView view;
  VkSemaphore available;  // signalled when the image may be written
  VkSemaphore rendered;   // to be signalled by the frame's submission, waited by present
};

class Window {
 public:
  Window(const std::string& title, uint32_t width, uint32_t height);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Second phase, once the Context exists (its instance must carry window_instance_extensions).
  void attach(const Context& context);
  // Releases the swapchain and surface; must run before the Context is destroyed.
  void detach();

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  void poll_events() const;
  // Scroll steps accumulated since the last call.
  float take_scroll();

  VkFormat format() const { return format_; }
  VkExtent2D extent() const { return extent_; }
  uint32_t image_count() const { return static_cast<uint32_t>(images_.size()); }
  VkImageView image_view(uint32_t index) const { return views_[index]; }

  // Returns false when the swapchain had to be recreated (skip this frame).
  bool acquire(uint32_t frame_slot, AcquiredImage& out);
  void present(const AcquiredImage& image);

 private:
  void create_swapchain();
  void destroy_swapchain();

  GLFWwindow* window_ = nullptr;
  const Context* context_ = nullptr;
  VkSurfaceKHR surface_ = VK_NULL_HANDLE;
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkExtent2D extent_{};
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkSemaphore> available_;  // one per frame slot
  std::vector<VkSemaphore> rendered_;   // one per swapchain image (reused only after present)
  bool out_of_date_ = false;
  float scroll_ = 0.0f;
};

}  // namespace meniscus
