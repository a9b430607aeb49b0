#pragma once
// output.readback: copies the final image into a host-visible buffer inside the frame, so
// headless captures and render tests read exactly what the graph produced.
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

// Copies `image` (a colour image, one layer) into `destination`, which must be at least
// width * height * 4 bytes; returns the buffer's written version.
graph::BufferHandle add_readback(graph::FrameGraph& graph, graph::ImageHandle image,
                                 graph::BufferHandle destination);

}  // namespace meniscus::passes
