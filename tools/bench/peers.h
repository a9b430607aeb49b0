#pragma once
// Peer implementations the benchmarks compare against, when their packages are installed.
#include <cstdint>
#include <optional>

#include "sim/histopyramid/volume.h"

namespace meniscus::bench {

struct PeerResult {
  double ms;
  uint64_t vertices;
  uint64_t triangles;
};

// vtkFlyingEdges3D on the same samples and iso value with `threads` SMP threads; nullopt when
// the benchmark was built without VTK.
std::optional<PeerResult> vtk_flying_edges(const sim::Volume& volume, float iso, int threads);
const char* vtk_version();

}  // namespace meniscus::bench
