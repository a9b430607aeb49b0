// Host side of the CUDA caustic (caustic_photons_cuda.h): the checks and parameters the CPU
// backend uses, over CausticMapCuda.
#include "sim/photon/caustic_photons_cuda.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/kdtree/device_knn_params.h"
#include "sim/kdtree/kdtree.h"
#include "sim/photon/caustic_map_cuda.h"
#include "sim/photon/device_surface.h"

namespace meniscus::sim::photon {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

void validate_device_request(const FloorGrid& grid, uint32_t k) {
  validate_caustic_request(grid, k);
  if (k > kCudaMaxCausticK)
    throw InputError("caustic image (cuda): k must be at most " + std::to_string(kCudaMaxCausticK) +
                     " neighbours, got " + std::to_string(k));
}

// The tree over the stored photons and the estimate from image.k of them, as estimate_caustics.
void estimate_on_device(CausticMapCuda& map, CausticImage& image, float power_per_photon, cudaStream_t stream) {
  const auto start = Clock::now();
  map.estimate(image.grid, caustic_energy(image.k, power_per_photon),
               kdtree::device_knn_params(kdtree::KnnParams{}, image.k), kdtree::KdTreeParams{}.traversal_cost, stream);
  image.tree_ms = ms_since(start);  // the build, waited for; the estimate is queued
}

// The photons' scene reading the surface's device copy.
void read_from(PhotonScene& scene, const DeviceSurface& device) {
  scene.indices = device.indices();
  scene.normals = device.normals();
  scene.optics = device.optics();
}

// The photons as collect_photons counts them, their positions left on the device.
CausticPhotons counted(const PhotonCounts& counts, const Sun& sun, uint32_t emitted) {
  CausticPhotons photons;
  photons.emitted = emitted;
  photons.power_per_photon = power_per_photon(sun, emitted);
  photons.stored = counts.stored;
  photons.direct = counts.direct;
  photons.escaped = counts.escaped;
  photons.dropped = counts.dropped;
  return photons;
}

std::vector<float> download_irradiance(const CausticMapCuda& map, const FloorGrid& grid) {
  std::vector<float> irradiance(size_t(grid.width) * grid.height);
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpy(irradiance.data(), map.irradiance(), irradiance.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return irradiance;
}

}  // namespace

CausticImage estimate_caustics_cuda(CausticMapCuda& map, const RefractingSurface& surface, const DeviceSurface& device,
                                    const Sun& sun, float floor_y, const PhotonParams& params, const FloorGrid& grid,
                                    uint32_t k, void* stream, CausticPhotons& photons) {
  PhotonScene scene = prepare_photons(surface, sun, floor_y, params);
  validate_device_request(grid, k);
  read_from(scene, device);
  const auto s = static_cast<cudaStream_t>(stream);
  const PhotonCounts counts = map.trace(device.tree(), scene, params.photons, s);
  photons = counted(counts, sun, params.photons);
  CausticImage image;
  image.grid = grid;
  image.k = std::min(k, counts.stored);
  estimate_on_device(map, image, photons.power_per_photon, s);
  return image;
}

CausticImage estimate_caustics_cuda(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                    const PhotonParams& params, const FloorGrid& grid, uint32_t k, double& ms,
                                    CausticPhotons& photons) {
  prepare_photons(surface, sun, floor_y, params);  // bad input before any copy
  validate_device_request(grid, k);
  DeviceSurface device;
  device.upload(*surface.tree, surface.indices, surface.normals, *surface.optics, nullptr);
  CausticMapCuda map;
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());
  const auto start = Clock::now();
  CausticImage image = estimate_caustics_cuda(map, surface, device, sun, floor_y, params, grid, k, nullptr, photons);
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());
  ms = ms_since(start);
  image.irradiance = download_irradiance(map, grid);
  return image;
}

CausticPhotons trace_caustic_photons_cuda(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                          const PhotonParams& params) {
  PhotonScene scene = prepare_photons(surface, sun, floor_y, params);  // bad input before any copy
  DeviceSurface device;
  device.upload(*surface.tree, surface.indices, surface.normals, *surface.optics, nullptr);
  read_from(scene, device);
  CausticMapCuda map;
  const PhotonCounts counts = map.trace(device.tree(), scene, params.photons, nullptr);
  CausticPhotons photons = counted(counts, sun, params.photons);
  photons.positions = map.download_stored();
  return photons;
}

CausticImage estimate_caustics_cuda(const CausticPhotons& photons, const FloorGrid& grid, uint32_t k) {
  validate_device_request(grid, k);
  CausticMapCuda map;
  map.store(photons.positions.data(), uint32_t(photons.positions.size()));
  CausticImage image;
  image.grid = grid;
  image.k = std::min<uint32_t>(k, uint32_t(photons.positions.size()));
  estimate_on_device(map, image, photons.power_per_photon, nullptr);
  image.irradiance = download_irradiance(map, grid);
  return image;
}

}  // namespace meniscus::sim::photon
