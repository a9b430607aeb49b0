#pragma once
// The Dear ImGui panel drawn over the window: per-pass GPU timings, frame times, the scene's
// parameters and the simulation controls. Windowed runs only; captures never draw it.
//
// ImGui 1.86's Vulkan backend predates dynamic rendering and wants a VkRenderPass, so this is
// the one pass in the engine that uses one. Its attachment starts and ends in
// COLOR_ATTACHMENT_OPTIMAL: the frame graph owns every layout transition around it.
#include <functional>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/graph/frame_graph.h"
#include "passes/fluid/fluid_settings.h"
#include "passes/mip/mip_progress.h"
#include "passes/mip/mip_settings.h"

namespace meniscus {

class Context;
class Window;

class UiOverlay {
 public:
  UiOverlay(const Context& context, Window& window);
  ~UiOverlay();
  UiOverlay(const UiOverlay&) = delete;
  UiOverlay& operator=(const UiOverlay&) = delete;

  // Starts an ImGui frame, runs `draw` (which issues ImGui calls), finishes it.
  void build(const std::function<void()>& draw);
  // Draws the finished frame over `target` (swapchain image `image_index`).
  graph::ImageHandle add(graph::FrameGraph& graph, graph::ImageHandle target, uint32_t image_index);

  bool wants_mouse() const;
  bool wants_keyboard() const;

 private:
  void create_framebuffers();
  void destroy_framebuffers();

  const Context& context_;
  Window& window_;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  std::vector<VkFramebuffer> framebuffers_;
  std::vector<VkImageView> framebuffer_views_;
  VkExtent2D framebuffer_extent_{};
};

// The fluid chain's live controls (filter, iterations, resolution, foam, debug view), drawn
// into the current ImGui window.
void draw_fluid_controls(passes::FluidSettings& settings);

// The MIP's live controls (method, streaming budget, progressive refinement, window) and, for
// the streaming MIP, how many details the image holds and the auxiliary error they leave.
void draw_mip_controls(passes::MipSettings& settings, const sim::mip::StreamIndex& stream,
                       const passes::MipProgress& progress);

}  // namespace meniscus
