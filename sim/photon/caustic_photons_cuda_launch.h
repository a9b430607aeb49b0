#pragma once
// The photons' kernel (caustic_photons_cuda.cu) as caustic_photons_cuda.cpp launches it. C++17
// for nvcc.
#include <cuda_runtime.h>

#include "sim/kdtree/triangle_traversal.h"
#include "sim/photon/photon_path.h"

namespace meniscus::sim::photon {

// Queues on `stream` photons [0, count) of `scene` through `tree` (all in device memory), photon
// i's path into paths[i].
void launch_photons(const kdtree::TriangleKdView& tree, const PhotonScene& scene, uint32_t count, PhotonPath* paths,
                    cudaStream_t stream);

}  // namespace meniscus::sim::photon
