#include "device_identity.h"

#include <vulkan/vulkan.h>

#include <cstring>
#include <vector>

namespace cuda_cpu {
namespace {

DeviceIdentity find_identity() {
  DeviceIdentity identity;
  identity.name = "Meniscus CUDA on CPU (no Vulkan CPU device)";
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return identity;
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance, &count, devices.data());
  for (VkPhysicalDevice device : devices) {
    VkPhysicalDeviceIDProperties id{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &id;
    vkGetPhysicalDeviceProperties2(device, &properties);
    if (properties.properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) continue;
    identity.name = std::string("Meniscus CUDA on CPU (beside ") + properties.properties.deviceName + ")";
    std::memcpy(identity.uuid.data(), id.deviceUUID, 16);
    break;
  }
  vkDestroyInstance(instance, nullptr);
  return identity;
}

}  // namespace

const DeviceIdentity& device_identity() {
  static const DeviceIdentity identity = find_identity();
  return identity;
}

}  // namespace cuda_cpu
