#include "passes/surface/record_extraction.h"

#include <utility>

#include "passes/surface/pyramid_readback.h"

namespace meniscus::passes {
namespace {

RecordSoup soup_of(ReadBackVertices read) {
  RecordSoup soup;
  soup.positions = std::move(read.positions);
  soup.normals = std::move(read.normals);
  soup.records = std::move(read.tags);
  return soup;
}

}  // namespace

RecordSoup extract_records_on_gpu(const Context& context, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  if (set.records.empty()) return {};  // no pyramid to build: add() would record nothing
  GpuRecordPyramid pyramid(context, 1, "readback.surface");
  pyramid.upload(0, set, origin, voxel_size);
  return soup_of(read_back_vertices(context, pyramid.passes(), [&](graph::FrameGraph& graph) { return *pyramid.add(graph, 0); }));
}

RecordSoup extract_record_buffer_on_gpu(const Context& context, VkBuffer buffer, VkDeviceSize size, uint32_t capacity,
                                        glm::vec3 voxel0, float voxel_size) {
  GpuRecordPyramid pyramid(context, 1, "readback.surface");
  RecordSoup soup = soup_of(read_back_vertices(context, pyramid.passes(), [&](graph::FrameGraph& graph) {
    const graph::BufferHandle records =
        graph.import_buffer("readback.surface.records", {buffer, size, graph::Access::HostWrite, graph::Access::HostWrite});
    return pyramid.add(graph, 0, {records, capacity, voxel0, voxel_size});
  }));
  // Each submission above waited for its frame, as a slot's fence would.
  soup.header = pyramid.last_header(0);
  return soup;
}

}  // namespace meniscus::passes
