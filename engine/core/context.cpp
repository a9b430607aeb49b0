#include "engine/core/context.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <sstream>
#include <string_view>

#include "engine/core/error.h"
#include "engine/core/log.h"

namespace meniscus {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool has_instance_extension(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

std::vector<VkExtensionProperties> device_extensions(VkPhysicalDevice device) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  return extensions;
}

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string version_string(uint32_t version) {
  std::ostringstream out;
  out << VK_API_VERSION_MAJOR(version) << "." << VK_API_VERSION_MINOR(version) << "."
      << VK_API_VERSION_PATCH(version);
  return out.str();
}

int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 1;
    default: return 0;
  }
}

// The features every pass relies on; a device without them is not considered at all.
struct RequiredFeatures {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 core{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};

  RequiredFeatures() {
    core.pNext = &v12;
    v12.pNext = &v13;
  }
  RequiredFeatures(const RequiredFeatures&) = delete;

  void query(VkPhysicalDevice device) { vkGetPhysicalDeviceFeatures2(device, &core); }
  bool satisfied() const {
    return v13.dynamicRendering && v13.synchronization2 && v12.timelineSemaphore &&
           v12.hostQueryReset;
  }
};

std::string missing_reason(VkPhysicalDevice device) {
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(device, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_3) return "Vulkan " + version_string(properties.apiVersion) + " < 1.3";
  RequiredFeatures features;
  features.query(device);
  if (!features.satisfied()) return "lacks dynamicRendering/synchronization2/timelineSemaphore";
  if (!has_extension(device_extensions(device), VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME))
    return "lacks VK_KHR_push_descriptor";
  return {};
}

}  // namespace

Context::Context(const ContextOptions& options) {
  create_instance(options);
  pick_physical_device(options);
  create_device(options);
}

Context::~Context() {
  if (device_) {
    vkDeviceWaitIdle(device_);
    vkDestroyDevice(device_, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance_, messenger_, nullptr);
  }
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

VkBool32 VKAPI_CALL Context::on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data,
                                              void* user) {
  auto* self = static_cast<Context*>(user);
  // The layer's own state tracker giving up on a timeline semaphore that a host thread signals
  // more than its fixed timeout later (CUDA host functions, slow under the CPU execution layer
  // on a loaded machine): the driver's wait has completed, and the message itself says "most
  // likely a validation bug" (KhronosGroup/Vulkan-ValidationLayers#8461, fixed by #8519 in
  // layers newer than Debian 12's 1.3.239). Reported, not counted.
  const bool layer_timeout =
      data->pMessageIdName && std::string_view(data->pMessageIdName) == "UNASSIGNED-VkSemaphore-state-timeout";
  if ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) && !layer_timeout) {
    self->validation_errors_.fetch_add(1);
    log::error(std::string("validation: ") + data->pMessage);
  } else if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
    log::warn(std::string("validation: ") + data->pMessage);
  }
  return VK_FALSE;
}

void Context::create_instance(const ContextOptions& options) {
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  for (const auto& name : options.instance_extensions) extensions.push_back(name.c_str());

  bool validation = options.validation;
  if (validation && !has_layer(kValidationLayer)) {
    // Asked for but missing is an installation problem worth failing loudly on: a silent
    // fallback would let a test suite pass without the checks it believes it ran.
    throw DeviceError(std::string("validation requested but ") + kValidationLayer +
                      " is not installed (apt-get install vulkan-validationlayers)");
  }
  if (validation) layers.push_back(kValidationLayer);
  debug_utils_ = has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (debug_utils_) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "meniscus";
  app.pEngineName = "meniscus";
  app.apiVersion = VK_API_VERSION_1_3;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &Context::on_debug_message;
  messenger_info.pUserData = this;

  // Synchronization validation catches barriers the frame graph got wrong.
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  features.pNext = debug_utils_ ? &messenger_info : nullptr;

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (validation) info.pNext = &features;
  VK_CHECK(vkCreateInstance(&info, nullptr, &instance_));

  if (debug_utils_) {
    if (validation) {
      auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
          vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
      VK_CHECK(create(instance_, &messenger_info, nullptr, &messenger_));
    }
    set_object_name_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance_, "vkSetDebugUtilsObjectNameEXT"));
    cmd_begin_label_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdBeginDebugUtilsLabelEXT"));
    cmd_end_label_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(instance_, "vkCmdEndDebugUtilsLabelEXT"));
  }
}

void Context::pick_physical_device(const ContextOptions& options) {
  uint32_t count = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  VK_CHECK(vkEnumeratePhysicalDevices(instance_, &count, devices.data()));

  std::string rejected;
  int best_rank = -1;
  const std::string wanted = lowercase(options.preferred_device);
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(device, &properties);
    if (std::string why = missing_reason(device); !why.empty()) {
      rejected += std::string("\n  ") + properties.deviceName + ": " + why;
      continue;
    }
    if (!wanted.empty() && lowercase(properties.deviceName).find(wanted) == std::string::npos) {
      rejected += std::string("\n  ") + properties.deviceName + ": does not match --device";
      continue;
    }
    int rank = type_rank(properties.deviceType);
    if (rank > best_rank) {
      best_rank = rank;
      physical_device_ = device;
    }
  }
  if (!physical_device_) {
    throw DeviceError("no usable Vulkan 1.3 device (install mesa-vulkan-drivers for lavapipe)" +
                      (rejected.empty() ? std::string(": none found") : rejected));
  }

  VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  id.pNext = &driver;
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &id;
  vkGetPhysicalDeviceProperties2(physical_device_, &properties);
  limits_ = properties.properties.limits;
  info_.name = properties.properties.deviceName;
  info_.driver = std::string(driver.driverName) + " " + driver.driverInfo;
  info_.api_version = version_string(properties.properties.apiVersion);
  info_.type = properties.properties.deviceType;
  info_.vendor_id = properties.properties.vendorID;
  std::copy(std::begin(id.deviceUUID), std::end(id.deviceUUID), info_.uuid.begin());
  info_.timestamp_period_ns = limits_.timestampPeriod;
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
}

void Context::create_device(const ContextOptions& options) {
  uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &family_count, families.data());
  // One universal queue: graphics implies transfer, and we require compute on the same family
  // so a frame is one submission ordered by the frame graph's barriers.
  constexpr VkQueueFlags kNeeded = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  bool found = false;
  for (uint32_t i = 0; i < family_count; ++i) {
    if ((families[i].queueFlags & kNeeded) == kNeeded) {
      queue_family_ = i;
      info_.timestamp_valid_bits = families[i].timestampValidBits;
      found = true;
      break;
    }
  }
  if (!found) throw DeviceError("device " + info_.name + " has no graphics+compute queue family");

  const auto available = device_extensions(physical_device_);
  std::vector<const char*> extensions = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
  if (options.presentation) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  // Lavapipe exports memory but not semaphores; TimelineSemaphore orders CUDA through host
  // functions on such a device (engine/interop/cuda_api.h).
  info_.external_memory_fd = has_extension(available, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  info_.external_semaphore_fd = has_extension(available, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  if (info_.external_memory_fd) extensions.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  if (info_.external_semaphore_fd) extensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);

  RequiredFeatures features;
  features.query(physical_device_);
  // Enable only what we rely on, so a pass that starts using something else trips validation.
  VkPhysicalDeviceFeatures supported = features.core.features;
  VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  enabled.features.shaderInt64 = supported.shaderInt64;
  enabled.features.fragmentStoresAndAtomics = supported.fragmentStoresAndAtomics;
  enabled.features.vertexPipelineStoresAndAtomics = supported.vertexPipelineStoresAndAtomics;
  enabled.features.largePoints = supported.largePoints;
  enabled.features.multiDrawIndirect = supported.multiDrawIndirect;
  enabled.features.drawIndirectFirstInstance = supported.drawIndirectFirstInstance;
  enabled.features.shaderStorageImageWriteWithoutFormat = supported.shaderStorageImageWriteWithoutFormat;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.timelineSemaphore = VK_TRUE;
  v12.hostQueryReset = VK_TRUE;
  v12.bufferDeviceAddress = features.v12.bufferDeviceAddress;
  v12.scalarBlockLayout = features.v12.scalarBlockLayout;
  v12.shaderFloat16 = features.v12.shaderFloat16;
  v12.storageBuffer8BitAccess = features.v12.storageBuffer8BitAccess;
  v12.shaderInt8 = features.v12.shaderInt8;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  v13.synchronization2 = VK_TRUE;
  v13.maintenance4 = features.v13.maintenance4;
  enabled.pNext = &v12;
  v12.pNext = &v13;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.pNext = &enabled;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  VK_CHECK(vkCreateDevice(physical_device_, &info, nullptr, &device_));
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  log::info("device: " + info_.name + " (" + info_.driver + ", Vulkan " + info_.api_version + ")");
}

uint32_t Context::find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) &&
        (memory_properties_.memoryTypes[i].propertyFlags & required) == required)
      return i;
  }
  return UINT32_MAX;
}

void Context::set_name(VkObjectType type, uint64_t handle, const char* name) const {
  if (!set_object_name_ || !name) return;
  VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name;
  set_object_name_(device_, &info);
}

void Context::begin_label(VkCommandBuffer cmd, const char* name) const {
  if (!cmd_begin_label_) return;
  VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  label.pLabelName = name;
  cmd_begin_label_(cmd, &label);
}

void Context::end_label(VkCommandBuffer cmd) const {
  if (cmd_end_label_) cmd_end_label_(cmd);
}

void Context::wait_idle() const { VK_CHECK(vkDeviceWaitIdle(device_)); }

}  // namespace meniscus
