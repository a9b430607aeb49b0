#pragma once
// mip.display: a MIP image (mip_renderer.h) onto the frame's output image, in grey through the
// window, fitted with the voxels' aspect, nearest pixels. It writes the 8-bit output directly:
// a window is already a display mapping, and the tonemap's curve would bend it.
#include <glm/glm.hpp>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/mip/mip_renderer.h"

namespace meniscus::passes {

struct MipWindow {
  float low = 0.0f, width = 1.0f;  // in grey levels
};

class MipDisplayPass {
 public:
  MipDisplayPass(const Context& context, VkFormat output_format);

  // `pixel_spacing`: the physical size of an image pixel along u and v (the voxel spacing).
  graph::ImageHandle add(graph::FrameGraph& graph, const MipImageBuffer& image, graph::ImageHandle output,
                         MipWindow window, glm::vec2 pixel_spacing, bool flip_vertical);

 private:
  Pipeline pipeline_;
  bool decode_srgb_;
};

}  // namespace meniscus::passes
