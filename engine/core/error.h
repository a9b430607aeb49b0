#pragma once
// Two kinds of failure, kept apart on purpose:
//  - DeviceError: a Vulkan (or CUDA) call failed. Carries file:line and the call's text.
//                 DeviceMemoryError: the device was out of memory, and nothing changed.
//  - InputError:  the user gave us something bad (scene, volume, mesh, CLI flag). Its message
//                 already names the file and the field; the app prints it and exits with 2.
#include <stdexcept>
#include <string>

#include <vulkan/vulkan.h>

namespace meniscus {

class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The device had too little memory for an allocation. Whoever allocated has changed nothing
// (the caller may go on as before, with less); the message says what, how much and what was free.
class DeviceMemoryError : public DeviceError {
 public:
  using DeviceError::DeviceError;
};

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Exit code for bad user input (DESIGN.md: "exit code 2, never a crash or a silent default").
inline constexpr int kInputErrorExitCode = 2;

const char* vk_result_name(VkResult result);

[[noreturn]] void throw_vk_error(VkResult result, const char* call, const char* file, int line);

}  // namespace meniscus

#define VK_CHECK(call)                                                         \
  do {                                                                         \
    VkResult vk_check_result_ = (call);                                        \
    if (vk_check_result_ != VK_SUCCESS)                                        \
      ::meniscus::throw_vk_error(vk_check_result_, #call, __FILE__, __LINE__); \
  } while (0)
