#pragma once
// Caustic photons (caustic_photons.h) and their caustic (caustic_image.h) on a CUDA device: a
// thread per photon running the CPU backend's very path (photon_path.h) through the surface's
// device copy (device_surface.h), then the photon kd-tree and the irradiance estimate there too
// (caustic_map_cuda.h), so that a frame's caustic never leaves the device.
#include <cstdint>

#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"

namespace meniscus::sim::photon {

class CausticMapCuda;
class DeviceSurface;

// The most neighbours a device estimate reads (the device KNN's list).
inline constexpr uint32_t kCudaMaxCausticK = 64;

// A frame's caustic on the device, queued on `stream` (a cudaStream_t; null: the legacy
// stream): params.photons photons through `device` (the copy of `surface`, which is checked and
// gives nothing else), stored on the floor at floor_y, their tree, the estimate at `grid`'s
// cells from the k nearest. Returns the image's grid, k and host times with its irradiance left
// in `map` (map.irradiance()), and sets `photons`' counts and power (its positions stay on the
// device). InputError as trace_caustic_photons and estimate_caustics, and for k beyond
// kCudaMaxCausticK; DeviceError when built without CUDA.
CausticImage estimate_caustics_cuda(CausticMapCuda& map, const RefractingSurface& surface, const DeviceSurface& device,
                                    const Sun& sun, float floor_y, const PhotonParams& params, const FloorGrid& grid,
                                    uint32_t k, void* stream, CausticPhotons& photons);

// The caustic of a surface whose tree the CPU built, made on the device as a frame makes it and
// brought back (the benchmark): the surface copied over first, then the photons, their tree and
// the estimate, waited for; `ms` is their wall time, without the copies; `photons` gets the
// counts. Errors as above.
CausticImage estimate_caustics_cuda(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                    const PhotonParams& params, const FloorGrid& grid, uint32_t k, double& ms,
                                    CausticPhotons& photons);

// The photons alone, the surface copied over and the stored ones brought back in photon order
// (tests, the benchmark). Errors as above.
CausticPhotons trace_caustic_photons_cuda(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                          const PhotonParams& params);

// The tree and the estimate alone, of photons from the host (the CPU's, say), brought back: the
// CPU's estimate_caustics to the bit. Errors as above.
CausticImage estimate_caustics_cuda(const CausticPhotons& photons, const FloorGrid& grid, uint32_t k);

}  // namespace meniscus::sim::photon
