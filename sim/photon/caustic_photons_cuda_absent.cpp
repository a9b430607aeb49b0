#include "engine/core/error.h"
#include "sim/photon/caustic_photons_cuda.h"

namespace meniscus::sim::photon {

CausticPhotons trace_caustic_photons_cuda(const RefractingSurface&, const DeviceSurface&, const Sun&, float,
                                          const PhotonParams&, void*) {
  throw DeviceError("caustic photons: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::photon
