#pragma once
// Peer implementations the benchmarks compare against, when their packages are installed.
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/histopyramid/volume.h"

namespace meniscus::bench {

struct PeerResult {
  std::vector<double> ms;  // one per repetition
  uint64_t vertices;
  uint64_t triangles;
};

// vtkFlyingEdges3D on the same samples and iso value with `threads` SMP threads, `repeat`
// times with one filter object (as an interactive user would re-run it, and as we re-use our
// own scratch memory); nullopt when the benchmark was built without VTK.
std::optional<PeerResult> vtk_flying_edges(const sim::Volume& volume, float iso, int threads, int repeat);
const char* vtk_version();

}  // namespace meniscus::bench
