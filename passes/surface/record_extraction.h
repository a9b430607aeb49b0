#pragma once
// Running a GpuRecordPyramid once, outside a frame, and reading its triangles back: for the
// tests that hold the Vulkan record pyramid against the CPU reference (record_mesh.h). The
// submissions are pyramid_readback.h's, shared with the dense-volume pyramid.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "passes/surface/record_pyramid_gpu.h"

namespace meniscus::passes {

struct RecordSoup {
  std::vector<glm::vec3> positions;  // 3 per triangle
  std::vector<glm::vec3> normals;
  std::vector<uint32_t> records;     // the record each vertex came from
};

// Record position p lands at `origin + voxel_size * p`.
RecordSoup extract_records_on_gpu(const Context& context, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size);

}  // namespace meniscus::passes
