#pragma once
// Marching cubes on a CUDA device with the 1D chunk/layer HistoPyramid of Dyken et al. §4.3
// (layout and layer widths: chunked_layout.h, the same numbers in the same places as the CPU
// build). Per extraction: one kernel classifies every cell and writes the three lowest levels
// (8-bit base and level 1, 16-bit level 2) by warp shuffles; one kernel per level above sums
// chunks of four (16-bit, then 32-bit layers); the top is read back (4 bytes) to size the
// output; then one thread per output vertex traverses the pyramid top-down to its cell and its
// corner (compaction and expansion at once) and writes position, normal and edge id.
//
// Built from marching_cubes_cuda.cu with MENISCUS_CUDA, else marching_cubes_cuda_absent.cpp.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

// Whether a CUDA device answers; `why` says why not ("not built", "no CUDA device (...)").
bool cuda_marching_cubes_available(std::string* why);

struct CudaSoup {
  std::vector<glm::vec3> positions;  // 3 per triangle
  std::vector<glm::vec3> normals;
  std::vector<uint64_t> edges;       // each vertex's edge id (MarchingCubes::edge_id)
  uint64_t vertices = 0;             // 3 * triangles, also without read-back
  double gpu_ms = 0;                 // classification + build + extraction, CUDA events
};

class CudaMarchingCubes {
 public:
  // Uploads the samples once (and finds their range for the iso check). Throws DeviceError
  // when built without CUDA or no device answers, InputError for a volume that is too large.
  explicit CudaMarchingCubes(const Volume& volume);
  ~CudaMarchingCubes();
  CudaMarchingCubes(const CudaMarchingCubes&) = delete;
  CudaMarchingCubes& operator=(const CudaMarchingCubes&) = delete;

  // Throws InputError (as the CPU path) for a non-finite iso value or one outside the data
  // range. Without `read_back` only the counts and the time come back (benchmarks).
  CudaSoup extract(float iso, bool read_back = true);
  const std::string& device_name() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace meniscus::sim
