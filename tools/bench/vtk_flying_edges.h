#pragma once
// The VTK Flying Edges peer behind a C++17-clean interface: vtk_flying_edges.cpp must build as
// C++17 (VTK 9.1's vtkSMPTools.h is not valid C++20) and so cannot include peers.h, which uses
// C++20 types. mc_bench.cpp turns this into peers.h's vtk_flying_edges().
#include <cstdint>
#include <vector>

namespace meniscus::bench {

struct FlyingEdgesInput {
  const float* values;  // x fastest, dims[0] * dims[1] * dims[2] samples
  uint32_t dims[3];
  float spacing[3];
  float origin[3];
  float iso;
  int threads;
  int repeat;
};

struct FlyingEdgesRun {
  std::vector<double> ms;  // one per repetition
  uint64_t vertices = 0;
  uint64_t triangles = 0;
};

// False (and `out` untouched) when the benchmark was built without VTK.
bool run_vtk_flying_edges(const FlyingEdgesInput& in, FlyingEdgesRun& out);
const char* vtk_flying_edges_version();

}  // namespace meniscus::bench
