#include "engine/core/error.h"
#include "sim/raytrace/refraction_tracer.h"

namespace meniscus::sim::raytrace {

std::unique_ptr<RefractionTracer> make_refraction_tracer_cuda(const Context&) {
  throw DeviceError("refraction: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

}  // namespace meniscus::sim::raytrace
