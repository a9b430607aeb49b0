// Host side of the CUDA photons (caustic_photons_cuda.h).
#include "sim/photon/caustic_photons_cuda.h"

#include <algorithm>
#include <vector>

#include "sim/photon/caustic_photons_cuda_launch.h"
#include "sim/photon/device_surface.h"

namespace meniscus::sim::photon {

CausticPhotons trace_caustic_photons_cuda(const RefractingSurface& surface, const DeviceSurface& device, const Sun& sun,
                                          float floor_y, const PhotonParams& params, PhotonPath* paths, void* stream) {
  PhotonScene scene = prepare_photons(surface, sun, floor_y, params);
  scene.indices = device.indices();
  scene.normals = device.normals();
  scene.optics = device.optics();
  const auto s = static_cast<cudaStream_t>(stream);
  launch_photons(device.tree(), scene, params.photons, paths, s);
  std::vector<PhotonPath> host(params.photons);
  if (!host.empty())
    MENISCUS_SIM_CUDA_CHECK(
        cudaMemcpyAsync(host.data(), paths, host.size() * sizeof(PhotonPath), cudaMemcpyDeviceToHost, s));
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(s));
  return collect_photons(host, sun);
}

CausticPhotons trace_caustic_photons_cuda(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                          const PhotonParams& params) {
  prepare_photons(surface, sun, floor_y, params);  // bad input before any copy
  DeviceSurface device;
  device.upload(*surface.tree, surface.indices, surface.normals, *surface.optics, nullptr);
  DeviceArray<PhotonPath> paths;
  paths.reserve(std::max<size_t>(params.photons, 1), "caustic photons (cuda): the paths");
  return trace_caustic_photons_cuda(surface, device, sun, floor_y, params, paths.get(), nullptr);
}

}  // namespace meniscus::sim::photon
