#pragma once
// environment.sky: bakes the procedural sky into a cubemap that the background and every lit
// surface sample. The cube persists across frames and is re-baked only when the environment
// changes, so on most frames the graph merely imports it in its sampled state.
#include <memory>

#include "engine/core/image.h"
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

class SkyPass {
 public:
  SkyPass(const Context& context, uint32_t face_size);

  // Returns the cube to sample; bakes it first when the environment changed (`frame` holds it).
  graph::ImageHandle add(graph::FrameGraph& graph, graph::BufferHandle frame);
  void invalidate() { baked_ = false; }

 private:
  Image cube_;
  Pipeline pipeline_;
  bool baked_ = false;
};

}  // namespace meniscus::passes
