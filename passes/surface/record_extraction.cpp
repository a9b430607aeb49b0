#include "passes/surface/record_extraction.h"

#include <utility>

#include "passes/surface/pyramid_readback.h"

namespace meniscus::passes {

RecordSoup extract_records_on_gpu(const Context& context, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  RecordSoup soup;
  if (set.records.empty()) return soup;  // no pyramid to build: add() would record nothing
  GpuRecordPyramid pyramid(context, 1, "readback.surface");
  pyramid.upload(0, set, origin, voxel_size);
  ReadBackVertices read =
      read_back_vertices(context, pyramid.passes(), [&](graph::FrameGraph& graph) { return *pyramid.add(graph, 0); });
  soup.positions = std::move(read.positions);
  soup.normals = std::move(read.normals);
  soup.records = std::move(read.tags);
  return soup;
}

}  // namespace meniscus::passes
