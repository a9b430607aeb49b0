#pragma once
// Running a GpuRecordPyramid once, outside a frame, and reading its triangles back: for the
// tests that hold the Vulkan record pyramid against the CPU reference (record_mesh.h). The
// submissions are pyramid_readback.h's, shared with the dense-volume pyramid.
#include <cstdint>
#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "passes/surface/record_pyramid_gpu.h"

namespace meniscus::passes {

struct RecordSoup {
  std::vector<glm::vec3> positions;  // 3 per triangle
  std::vector<glm::vec3> normals;
  std::vector<uint32_t> records;     // the record each vertex came from
  std::optional<sim::CubeRecordHeader> header;  // from a record buffer: what the capacity feedback read
};

// Record position p lands at `origin + voxel_size * p`.
RecordSoup extract_records_on_gpu(const Context& context, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size);

// From a record buffer in cube_record_buffer.h's layout that the host wrote (`buffer` of `size`
// bytes, with room for `capacity` records), as a frame reads it: record position p of the
// header's origin o lands at `voxel0 + voxel_size * (o + p)`.
RecordSoup extract_record_buffer_on_gpu(const Context& context, VkBuffer buffer, VkDeviceSize size, uint32_t capacity,
                                        glm::vec3 voxel0, float voxel_size);

}  // namespace meniscus::passes
