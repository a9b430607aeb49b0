#pragma once
// Running a GpuHistoPyramid once, outside a frame, and reading its surface back: for
// `meniscus mesh --sim vulkan`, the benchmark and the CPU-reference tests. The submissions are
// pyramid_readback.h's, shared with the record pyramid; this gives them the volume's shape.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "passes/surface/histopyramid_gpu.h"

namespace meniscus::profile {
class GpuPassTimer;
}

namespace meniscus::passes {

struct GpuSoup {
  std::vector<glm::vec3> positions;  // 3 per triangle
  std::vector<glm::vec3> normals;
  std::vector<uint64_t> edges;       // the cube edge of each vertex (see MarchingCubes::edge_id)
  double gpu_ms = 0;                 // build + extraction passes, from GPU timestamps (0 without)
};

GpuSoup extract_on_gpu(const Context& context, GpuHistoPyramid& pyramid, float iso);

}  // namespace meniscus::passes
