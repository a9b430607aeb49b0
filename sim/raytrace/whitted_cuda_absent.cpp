#include "engine/core/error.h"
#include "sim/raytrace/whitted_cuda.h"

namespace meniscus::sim::raytrace {

namespace {
constexpr const char* kNotBuilt = "ray tracer: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
}

struct WhittedCuda::Device {};

WhittedCuda::WhittedCuda() { throw DeviceError(kNotBuilt); }
WhittedCuda::~WhittedCuda() = default;
void WhittedCuda::trace(const photon::DeviceSurface&, const TraceScene&, const TraceCamera&, const TraceParams&,
                        glm::vec4*, void*, const float*) {
  throw DeviceError(kNotBuilt);
}
TraceStats WhittedCuda::last_stats() const { throw DeviceError(kNotBuilt); }

TraceImage trace_image_cuda(const kdtree::TriangleKdTree&, const TraceScene&, const TraceCamera&, const TraceParams&) {
  throw DeviceError(kNotBuilt);
}

TraceImage build_and_trace_cuda(const TraceScene&, const TraceCamera&, const TraceParams&, double&) {
  throw DeviceError(kNotBuilt);
}

}  // namespace meniscus::sim::raytrace
