// The CPU backend of the refraction stages (refraction_tracer.h).
#include <algorithm>
#include <utility>

#include "engine/interop/shared_buffer.h"
#include "sim/raytrace/refraction_tracer.h"

namespace meniscus::sim::raytrace {
namespace {

class RefractionTracerCpu final : public RefractionTracer {
 public:
  SimBackend backend() const override { return SimBackend::Cpu; }

  TraceImage trace(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params) override {
    TraceImage image = trace_image(scene, camera, params);
    rgb_ = std::move(image.rgb);  // what write() publishes; the stats go back
    image.rgb.clear();
    return image;
  }

  void clear(uint32_t width, uint32_t height) override { rgb_.assign(size_t(width) * height, glm::vec3(0.0f)); }

  void write(SharedBuffer& target) override {
    auto* out = static_cast<TracedPixel*>(target.host_pointer());
    std::transform(rgb_.begin(), rgb_.end(), out, [](const glm::vec3& c) { return TracedPixel(c, 1.0f); });
  }

 private:
  std::vector<glm::vec3> rgb_;
};

}  // namespace

std::unique_ptr<RefractionTracer> make_refraction_tracer_cpu() { return std::make_unique<RefractionTracerCpu>(); }

}  // namespace meniscus::sim::raytrace
