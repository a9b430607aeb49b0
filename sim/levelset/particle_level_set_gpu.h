#pragma once
// The particle level set (particle_level_set.h) on the GPU-STL: the same steps as the CPU
// builder, with the same per-voxel arithmetic (particle_level_set_math.h) in the same order, so
// that both produce the same list — keys, ids, free stack, flags and values — bit for bit.
//
// Everything is queued on the default stream, the GPU-STL's, and nothing is read back: the
// number of marked tiles becomes the list's size on the device, and the passes after it loop
// over that count with their arrays sized by the list's allocation (gpu_stl_list.h). Marked
// tiles, or a management growth, beyond the allocation freeze the list as it was; build()
// then grows it and builds again, queue_build() leaves that to the list's poll(). A scratch
// buffer that has to grow reallocates (cudaFree waits): once per growth, not per frame.
//
// Built from particle_level_set_cuda.cu with MENISCUS_CUDA, else particle_level_set_absent.cpp
// (every call throws DeviceError saying so).
#include <cstdint>
#include <memory>

#include "sim/common/particle.h"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/particle_level_set.h"

namespace meniscus::sim::levelset {

struct GpuParticleLevelSetScratch;  // device arrays (particle_level_set_cuda.cu)

class GpuParticleLevelSetBuilder {
 public:
  // Throws InputError for bad parameters (as the CPU builder), DeviceError when no device.
  explicit GpuParticleLevelSetBuilder(const ParticleLevelSetParams& params);
  ~GpuParticleLevelSetBuilder();
  GpuParticleLevelSetBuilder(const GpuParticleLevelSetBuilder&) = delete;
  GpuParticleLevelSetBuilder& operator=(const GpuParticleLevelSetBuilder&) = delete;

  // Replaces the contents of `list` (its γ becomes params.gamma) by the level set of the
  // `count` particles at `device_particles` (device memory, positions in metres): e.g. the
  // buffer the SPH CUDA backend publishes, once the work writing it is ordered before the
  // default stream.
  // Waits for the build and returns its counts, as the CPU builder does (tests, tools).
  ParticleLevelSetStats build(GpuSortedTileList& list, const Particle* device_particles, uint32_t count);
  // The same build, queued with no wait (a frame's).
  void queue_build(GpuSortedTileList& list, const Particle* device_particles, uint32_t count);

  const ParticleLevelSetParams& params() const { return params_; }

 private:
  ParticleLevelSetParams params_;
  particle_grid::GridShape shape_;
  std::unique_ptr<GpuParticleLevelSetScratch> scratch_;
};

}  // namespace meniscus::sim::levelset
