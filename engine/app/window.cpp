#include "engine/app/window.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

constexpr uint32_t kMaxFrameSlots = 4;

void init_glfw() {
  static bool initialised = false;
  if (initialised) return;
  if (!glfwInit()) throw DeviceError("glfwInit failed: no display");
  initialised = true;
  std::atexit(glfwTerminate);
}

}  // namespace

bool display_available() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if ((!x11 || !*x11) && (!wayland || !*wayland)) return false;
  glfwSetErrorCallback([](int, const char*) {});  // a failed probe is an answer, not an error
  const bool ok = glfwInit() == GLFW_TRUE && glfwVulkanSupported() == GLFW_TRUE;
  glfwSetErrorCallback(nullptr);
  return ok;
}

std::vector<std::string> window_instance_extensions() {
  init_glfw();
  uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (!names) throw DeviceError("GLFW found no Vulkan presentation support");
  return {names, names + count};
}

Window::Window(const std::string& title, uint32_t width, uint32_t height) {
  init_glfw();
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  window_ = glfwCreateWindow(static_cast<int>(width), static_cast<int>(height), title.c_str(), nullptr, nullptr);
  if (!window_) throw DeviceError("glfwCreateWindow failed");
  glfwSetWindowUserPointer(window_, this);
  glfwSetFramebufferSizeCallback(window_, [](GLFWwindow* w, int, int) {
    static_cast<Window*>(glfwGetWindowUserPointer(w))->out_of_date_ = true;
  });
  // Installed before ImGui's backend, which chains to it.
  glfwSetScrollCallback(window_, [](GLFWwindow* w, double, double dy) {
    static_cast<Window*>(glfwGetWindowUserPointer(w))->scroll_ += static_cast<float>(dy);
  });
}

Window::~Window() {
  detach();
  if (window_) glfwDestroyWindow(window_);
}

void Window::detach() {
  if (!context_) return;
  context_->wait_idle();
  destroy_swapchain();
  for (VkSemaphore s : available_) vkDestroySemaphore(context_->device(), s, nullptr);
  available_.clear();
  vkDestroySurfaceKHR(context_->instance(), surface_, nullptr);
  surface_ = VK_NULL_HANDLE;
  context_ = nullptr;
}

void Window::attach(const Context& context) {
  context_ = &context;
  VK_CHECK(glfwCreateWindowSurface(context.instance(), window_, nullptr, &surface_));
  VkBool32 supported = VK_FALSE;
  VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(context.physical_device(), context.queue_family(), surface_, &supported));
  if (!supported) throw DeviceError("the chosen queue family cannot present to this window");
  VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  available_.resize(kMaxFrameSlots);
  for (VkSemaphore& s : available_) VK_CHECK(vkCreateSemaphore(context.device(), &info, nullptr, &s));
  create_swapchain();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }
void Window::poll_events() const { glfwPollEvents(); }

float Window::take_scroll() { return std::exchange(scroll_, 0.0f); }

void Window::create_swapchain() {
  VkPhysicalDevice physical = context_->physical_device();
  VkSurfaceCapabilitiesKHR caps;
  VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical, surface_, &caps));
  uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface_, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(physical, surface_, &count, formats.data());
  // UNORM first: the tonemap pass encodes sRGB itself, so PNG captures and the window agree.
  VkSurfaceFormatKHR chosen = formats.front();
  for (const auto& f : formats) {
    if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
        f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
      chosen = f;
      break;
    }
  }
  format_ = chosen.format;

  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  extent_ = caps.currentExtent.width != UINT32_MAX
                ? caps.currentExtent
                : VkExtent2D{std::clamp<uint32_t>(width, caps.minImageExtent.width, caps.maxImageExtent.width),
                             std::clamp<uint32_t>(height, caps.minImageExtent.height, caps.maxImageExtent.height)};

  uint32_t image_count = caps.minImageCount + 1;
  if (caps.maxImageCount) image_count = std::min(image_count, caps.maxImageCount);
  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = image_count;
  info.imageFormat = chosen.format;
  info.imageColorSpace = chosen.colorSpace;
  info.imageExtent = extent_;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always available; vsync is what a viewer wants
  info.clipped = VK_TRUE;
  VK_CHECK(vkCreateSwapchainKHR(context_->device(), &info, nullptr, &swapchain_));

  vkGetSwapchainImagesKHR(context_->device(), swapchain_, &count, nullptr);
  images_.resize(count);
  vkGetSwapchainImagesKHR(context_->device(), swapchain_, &count, images_.data());
  VkSemaphoreCreateInfo semaphore_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  for (VkImage image : images_) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format_;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VK_CHECK(vkCreateImageView(context_->device(), &view, nullptr, &views_.emplace_back()));
    VK_CHECK(vkCreateSemaphore(context_->device(), &semaphore_info, nullptr, &rendered_.emplace_back()));
  }
  out_of_date_ = false;
}

void Window::destroy_swapchain() {
  for (VkImageView v : views_) vkDestroyImageView(context_->device(), v, nullptr);
  for (VkSemaphore s : rendered_) vkDestroySemaphore(context_->device(), s, nullptr);
  views_.clear();
  rendered_.clear();
  images_.clear();
  if (swapchain_) vkDestroySwapchainKHR(context_->device(), swapchain_, nullptr);
  swapchain_ = VK_NULL_HANDLE;
}

bool Window::acquire(uint32_t frame_slot, AcquiredImage& out) {
  int width = 0, height = 0;
  glfwGetFramebufferSize(window_, &width, &height);
  while (width == 0 || height == 0) {  // minimised: nothing to draw into
    glfwWaitEvents();
    glfwGetFramebufferSize(window_, &width, &height);
  }
  if (out_of_date_) {
    context_->wait_idle();
    destroy_swapchain();
    create_swapchain();
    return false;
  }
  VkSemaphore available = available_[frame_slot % kMaxFrameSlots];
  uint32_t index = 0;
  VkResult result = vkAcquireNextImageKHR(context_->device(), swapchain_, UINT64_MAX, available, VK_NULL_HANDLE, &index);
  if (result == VK_ERROR_OUT_OF_DATE_KHR) {
    out_of_date_ = true;
    return false;
  }
  if (result != VK_SUBOPTIMAL_KHR) VK_CHECK(result);
  out = {index, images_[index], views_[index], available, rendered_[index]};
  return true;
}

void Window::present(const AcquiredImage& image) {
  VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  info.waitSemaphoreCount = 1;
  info.pWaitSemaphores = &image.rendered;
  info.swapchainCount = 1;
  info.pSwapchains = &swapchain_;
  info.pImageIndices = &image.index;
  VkResult result = vkQueuePresentKHR(context_->queue(), &info);
  if (result == VK_ERROR_OUT_OF_DATE_KHR || result == VK_SUBOPTIMAL_KHR) {
    out_of_date_ = true;
    return;
  }
  VK_CHECK(result);
}

}  // namespace meniscus
