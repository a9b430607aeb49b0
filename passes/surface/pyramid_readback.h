#pragma once
// Running a GPU HistoPyramid once, outside a frame, and reading its vertices back: what the
// dense-volume extraction (gpu_extraction.h) and the cube-record extraction
// (record_extraction.h) share. Two submissions, as the count lives on the GPU: the first
// builds the pyramid and reads the vertex count, the second builds it again and extracts
// exactly that many into a host-visible buffer.
#include <cstdint>
#include <functional>
#include <vector>

#include <glm/glm.hpp>

#include "passes/surface/pyramid_passes.h"

namespace meniscus::passes {

// The vertices as both extract shaders write them: position with 32 bits of the kind's own in
// w (the volume's edge id, the record's index), then the normal.
struct ReadBackVertices {
  std::vector<glm::vec3> positions;  // 3 per triangle
  std::vector<glm::vec3> normals;
  std::vector<uint32_t> tags;        // the bits in each position's w
  double gpu_ms = 0;                 // build + extraction passes, from GPU timestamps (0 without)
};

// `build` records the pyramid's passes into a graph (the same pyramid both times); `passes`
// records its extraction.
ReadBackVertices read_back_vertices(const Context& context, const PyramidPasses& passes,
                                    const std::function<PyramidOutputs(graph::FrameGraph&)>& build);

}  // namespace meniscus::passes
