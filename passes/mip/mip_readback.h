#pragma once
// A MIP image (mip_renderer.h) copied back to the host: what the benchmark's error measures and
// the tests compare on the CPU. The constructor adds a readback pass to `graph`; finish() is
// called once the graph's command buffer has completed.
#include <memory>

#include "engine/core/buffer.h"
#include "engine/graph/frame_graph.h"
#include "passes/mip/mip_renderer.h"
#include "sim/mip/axis_mip.h"

namespace meniscus::passes {

class MipReadback {
 public:
  MipReadback(const Context& context, graph::FrameGraph& graph, const MipImageBuffer& image);
  // The image without the pyramid's padding.
  sim::mip::MipImage finish();

 private:
  MipImageBuffer image_;
  std::unique_ptr<Buffer> host_;
};

// Renders one frame of `renderer` with `settings` alone and reads it back (submit and wait).
sim::mip::MipImage render_mip_image(const Context& context, MipRenderer& renderer, const MipSettings& settings);

}  // namespace meniscus::passes
