#include "engine/core/error.h"
#include "sim/photon/caustic_photons_cuda.h"

namespace meniscus::sim::photon {
namespace {
constexpr const char* kNotBuilt = "caustic photons: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
}

CausticImage estimate_caustics_cuda(CausticMapCuda&, const RefractingSurface&, const DeviceSurface&, const Sun&, float,
                                    const PhotonParams&, const FloorGrid&, uint32_t, void*, CausticPhotons&) {
  throw DeviceError(kNotBuilt);
}

CausticImage estimate_caustics_cuda(const RefractingSurface&, const Sun&, float, const PhotonParams&, const FloorGrid&,
                                    uint32_t, double&, CausticPhotons&) {
  throw DeviceError(kNotBuilt);
}

CausticPhotons trace_caustic_photons_cuda(const RefractingSurface&, const Sun&, float, const PhotonParams&) {
  throw DeviceError(kNotBuilt);
}

CausticImage estimate_caustics_cuda(const CausticPhotons&, const FloorGrid&, uint32_t) { throw DeviceError(kNotBuilt); }

}  // namespace meniscus::sim::photon
