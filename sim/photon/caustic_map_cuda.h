#pragma once
// The caustic wholly on a CUDA device (Zhou et al. 2008 §5 as the paper runs it on a GPU): a
// thread per photon traces its path (photon_path.h) through the surface's device kd-tree, the
// stored landings are gathered in photon order by a scan, the photon kd-tree is built over them
// (sim/kdtree/device_kdtree.h) and the irradiance estimated at the floor grid's cell centres
// from the k nearest (device_knn.h: Algorithm 7's r0, the histogram search). The host reads the
// photons' four counts; the irradiance stays on the device for the tracer. The same photons give
// the CPU's caustic (estimate_caustics) to the bit. C++17 (nvcc includes it); CUDA builds only.
#include <cuda_runtime.h>

#include <cstdint>
#include <glm/vec3.hpp>
#include <memory>
#include <vector>

#include "sim/kdtree/device_kdtree.h"
#include "sim/kdtree/device_knn.h"
#include "sim/kdtree/triangle_traversal.h"
#include "sim/photon/floor_grid.h"
#include "sim/photon/photon_path.h"

namespace meniscus::sim::photon {

struct PhotonCounts {
  uint32_t stored = 0, direct = 0, escaped = 0, dropped = 0;
};

class CausticMapCuda {
 public:
  CausticMapCuda();
  ~CausticMapCuda();
  CausticMapCuda(const CausticMapCuda&) = delete;
  CausticMapCuda& operator=(const CausticMapCuda&) = delete;

  // Photons [0, count) of `scene` (its arrays on the device) through `tree`, queued on `stream`
  // (null: the legacy stream), their stored landings gathered in photon order; waits for the
  // counts. DeviceMemoryError when the device is full.
  PhotonCounts trace(const kdtree::TriangleKdView& tree, const PhotonScene& scene, uint32_t count, cudaStream_t stream);

  // Landings given instead of traced (tests: the CPU's photons), copied over.
  void store(const glm::vec3* landings, uint32_t count);

  // The photon tree over the stored landings (at least k of them; built on the legacy stream,
  // after `stream`'s work, and waited for), then the irradiance at `grid`'s cell centres queued
  // on `stream`: irradiance_at(energy, r_k), energy = k Φ / π. `knn.k` is k.
  void estimate(const FloorGrid& grid, float energy, const kdtree::DeviceKnnParams& knn, float traversal_cost,
                cudaStream_t stream);

  // grid.width x grid.height floats, row 0 at grid.min.z, as CausticImage::irradiance.
  const float* irradiance() const;
  const kdtree::DeviceKdTree& tree() const;
  // The stored landings, in photon order (tests).
  std::vector<glm::vec3> download_stored() const;

 private:
  struct Device;
  std::unique_ptr<Device> d_;
};

}  // namespace meniscus::sim::photon
