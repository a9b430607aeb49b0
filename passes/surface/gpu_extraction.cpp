#include "passes/surface/gpu_extraction.h"

#include <utility>

#include "passes/surface/pyramid_readback.h"

namespace meniscus::passes {

GpuSoup extract_on_gpu(const Context& context, GpuHistoPyramid& pyramid, float iso) {
  ReadBackVertices read =
      read_back_vertices(context, pyramid.passes(), [&](graph::FrameGraph& graph) { return pyramid.add(graph, iso); });
  GpuSoup soup;
  soup.positions = std::move(read.positions);
  soup.normals = std::move(read.normals);
  soup.edges.assign(read.tags.begin(), read.tags.end());  // the shader's 32 bits hold every edge id of one pyramid
  soup.gpu_ms = read.gpu_ms;
  return soup;
}

}  // namespace meniscus::passes
