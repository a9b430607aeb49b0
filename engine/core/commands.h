#pragma once
// Recording helpers shared by the app and the tests.
#include <functional>

#include <vulkan/vulkan.h>

namespace meniscus {

class Context;

// Records `record` into a fresh command buffer, submits it and waits. For set-up and readback,
// never inside a frame.
void submit_and_wait(const Context& context, const std::function<void(VkCommandBuffer)>& record);

}  // namespace meniscus
