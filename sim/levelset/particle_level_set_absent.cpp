// Without MENISCUS_CUDA: the GPU particle level set says so.
#include "engine/core/error.h"
#include "sim/levelset/particle_level_set_gpu.h"

namespace meniscus::sim::levelset {

struct GpuParticleLevelSetScratch {};

GpuParticleLevelSetBuilder::GpuParticleLevelSetBuilder(const ParticleLevelSetParams& params)
    : params_(params), shape_(particle_grid_shape(params)) {
  throw DeviceError("GPU particle level set: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}
GpuParticleLevelSetBuilder::~GpuParticleLevelSetBuilder() = default;
ParticleLevelSetStats GpuParticleLevelSetBuilder::build(GpuSortedTileList&, const Particle*, uint32_t) {
  throw DeviceError("GPU particle level set: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}
void GpuParticleLevelSetBuilder::queue_build(GpuSortedTileList&, const Particle*, uint32_t) {
  throw DeviceError("GPU particle level set: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::levelset
