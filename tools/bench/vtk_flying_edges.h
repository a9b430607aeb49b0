#pragma once
// The VTK Flying Edges peer behind a C++17-clean interface: vtk_flying_edges.cpp must build as
// C++17 (VTK 9.1's vtkSMPTools.h is not valid C++20) and so cannot include peers.h, which uses
// C++20 types.
#include <cstdint>
#include <memory>

namespace meniscus::bench {

struct FlyingEdgesInput {
  const float* values;  // x fastest, dims[0] * dims[1] * dims[2] samples, read in place
  uint32_t dims[3];
  float spacing[3];
  float origin[3];
  float iso;
  int threads;
};

// vtkFlyingEdges3D on the same samples and iso value with `threads` SMP threads, one filter
// object re-run (as an interactive user would re-run it, and as we re-use our own scratch
// memory). One run a call, so that the bench can alternate its runs with ours: a shared
// machine's speed drifts over seconds, and both sides then sample the same drift.
class FlyingEdgesRunner {
 public:
  // Null when the benchmark was built without VTK.
  static std::unique_ptr<FlyingEdgesRunner> create(const FlyingEdgesInput& in);
  virtual ~FlyingEdgesRunner() = default;
  // Milliseconds of one full re-execution.
  virtual double run() = 0;
  // The last run's output.
  virtual uint64_t vertices() const = 0;
  virtual uint64_t triangles() const = 0;
};

const char* vtk_flying_edges_version();

}  // namespace meniscus::bench
