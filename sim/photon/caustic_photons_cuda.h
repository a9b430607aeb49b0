#pragma once
// Caustic photons (caustic_photons.h) on a CUDA device: a thread per photon running the CPU
// backend's very path (photon_path.h) through the surface's device copy (device_surface.h),
// then the paths brought back and stored in photon order as on the CPU (the photon kd-tree and
// the irradiance estimate are the CPU's for now), so both backends store the same photons.
#include "sim/photon/caustic_photons.h"

namespace meniscus::sim::photon {

class DeviceSurface;

// Traces on `stream` (a cudaStream_t; null: the legacy stream) into `paths`, device memory for
// params.photons paths that the caller keeps from frame to frame, and waits for them.
// `surface` is the host's description (checked, and the sun's power), `device` its copy on the
// device. InputError as trace_caustic_photons; DeviceError when built without CUDA.
CausticPhotons trace_caustic_photons_cuda(const RefractingSurface& surface, const DeviceSurface& device, const Sun& sun,
                                          float floor_y, const PhotonParams& params, PhotonPath* paths, void* stream);

// The same, with the surface copied over and the paths allocated first (tests, the benchmark).
CausticPhotons trace_caustic_photons_cuda(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                          const PhotonParams& params);

}  // namespace meniscus::sim::photon
