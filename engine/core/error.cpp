#include "engine/core/error.h"

#include <sstream>

namespace meniscus {

const char* vk_result_name(VkResult result) {
  switch (result) {
#define MENISCUS_RESULT(r) \
  case r:                  \
    return #r;
    MENISCUS_RESULT(VK_SUCCESS)
    MENISCUS_RESULT(VK_NOT_READY)
    MENISCUS_RESULT(VK_TIMEOUT)
    MENISCUS_RESULT(VK_INCOMPLETE)
    MENISCUS_RESULT(VK_SUBOPTIMAL_KHR)
    MENISCUS_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    MENISCUS_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    MENISCUS_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    MENISCUS_RESULT(VK_ERROR_DEVICE_LOST)
    MENISCUS_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    MENISCUS_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    MENISCUS_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    MENISCUS_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    MENISCUS_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    MENISCUS_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    MENISCUS_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    MENISCUS_RESULT(VK_ERROR_SURFACE_LOST_KHR)
    MENISCUS_RESULT(VK_ERROR_OUT_OF_DATE_KHR)
    MENISCUS_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
#undef MENISCUS_RESULT
    default:
      return "VkResult(unknown)";
  }
}

void throw_vk_error(VkResult result, const char* call, const char* file, int line) {
  std::ostringstream message;
  message << file << ":" << line << ": " << call << " failed with " << vk_result_name(result);
  throw DeviceError(message.str());
}

}  // namespace meniscus
