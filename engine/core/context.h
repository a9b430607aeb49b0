#pragma once
// The Vulkan instance, the chosen physical device, one logical device and one queue.
//
// Any Vulkan 1.3 device with dynamic rendering, synchronization2 and timeline semaphores is
// accepted: NVIDIA on the GPU machines, Mesa lavapipe everywhere else. Discrete GPUs win over
// integrated, integrated over CPU rasterisers. With validation on, every error message the
// layers report is counted; tests assert the count stays zero.
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

namespace meniscus {

struct ContextOptions {
  bool validation = false;
  // Instance extensions a window system needs (GLFW's list); empty when headless.
  std::vector<std::string> instance_extensions;
  // Adds VK_KHR_swapchain to the device.
  bool presentation = false;
  // Case-insensitive substring of the device name to prefer (`--device`); empty = best.
  std::string preferred_device;
};

struct DeviceInfo {
  std::string name;
  std::string driver;       // driver name + info, e.g. "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)"
  std::string api_version;  // "1.3.230"
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t vendor_id = 0;
  std::array<uint8_t, VK_UUID_SIZE> uuid{};  // matched against cudaDeviceProp::uuid
  float timestamp_period_ns = 1.0f;
  uint32_t timestamp_valid_bits = 0;  // of the graphics queue family; 0 = no timestamps
  bool external_memory_fd = false;     // VK_KHR_external_memory_fd enabled
  bool external_semaphore_fd = false;  // VK_KHR_external_semaphore_fd enabled
};

class Context {
 public:
  explicit Context(const ContextOptions& options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const DeviceInfo& info() const { return info_; }
  const VkPhysicalDeviceLimits& limits() const { return limits_; }

  uint32_t find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const;

  // Names an object for validation messages and debuggers (no-op without debug utils).
  void set_name(VkObjectType type, uint64_t handle, const char* name) const;
  void begin_label(VkCommandBuffer cmd, const char* name) const;
  void end_label(VkCommandBuffer cmd) const;

  // Validation errors reported since creation (warnings are logged, not counted).
  uint32_t validation_error_count() const { return validation_errors_.load(); }

  void wait_idle() const;

 private:
  static VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT types,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user);
  void create_instance(const ContextOptions& options);
  void pick_physical_device(const ContextOptions& options);
  void create_device(const ContextOptions& options);

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  DeviceInfo info_;
  VkPhysicalDeviceLimits limits_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  bool debug_utils_ = false;
  std::atomic<uint32_t> validation_errors_{0};

  PFN_vkSetDebugUtilsObjectNameEXT set_object_name_ = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin_label_ = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT cmd_end_label_ = nullptr;
};

}  // namespace meniscus
