// The photons' kernel: a thread per photon running photon_path.h over the kd-tree's traversal.
#include <cuda_runtime.h>

#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/photon/caustic_photons_cuda_launch.h"

namespace meniscus::sim::photon {
namespace {

constexpr uint32_t kBlock = 128;

__global__ void trace_photons(kdtree::TriangleKdSurface surface, PhotonScene scene, uint32_t count, PhotonPath* paths) {
  const uint32_t i = blockIdx.x * kBlock + threadIdx.x;
  if (i < count) paths[i] = trace_photon(surface, scene, i);
}

}  // namespace

void launch_photons(const kdtree::TriangleKdView& tree, const PhotonScene& scene, uint32_t count, PhotonPath* paths,
                    cudaStream_t stream) {
  if (count == 0) return;
  launch<trace_photons>({(count + kBlock - 1) / kBlock, kBlock, 0, stream}, kdtree::TriangleKdSurface{tree}, scene,
                        count, paths);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meniscus::sim::photon
