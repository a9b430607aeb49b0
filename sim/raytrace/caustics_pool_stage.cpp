#include "sim/raytrace/caustics_pool_stage.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"

namespace meniscus::sim::raytrace {
namespace {

class CausticsPoolCpu final : public TracedImageStage {
 public:
  explicit CausticsPoolCpu(const PoolParams& params) : params_(params), start_(params) { render(); }

  SimBackend backend() const override { return SimBackend::Cpu; }
  uint32_t width() const override { return params_.trace.width; }
  uint32_t height() const override { return params_.trace.height; }

  void reset() override {
    params_ = start_;
    time_ = 0.0;
    render();
  }

  std::vector<StageControl> controls() override {
    return {{"sun elevation (deg)", &params_.sun_elevation_degrees, 10.0f, 90.0f, false},
            {"sun azimuth (deg)", &params_.sun_azimuth_degrees, -180.0f, 180.0f, false},
            {"wave height (m)", &params_.wave_height, 0.0f, 0.2f * params_.depth, false},
            {"wave speed", &params_.wave_speed, 0.0f, 4.0f, false}};
  }

  void step(double dt) override {
    time_ += dt;
    render();
  }

  void write(SharedBuffer& target) override {
    auto* out = static_cast<TracedPixel*>(target.host_pointer());
    std::transform(frame_.image.rgb.begin(), frame_.image.rgb.end(), out,
                   [](const glm::vec3& c) { return TracedPixel(c, 1.0f); });
  }

  std::string summary() const override {
    const PoolFrameStats& s = frame_.stats;
    char text[160];
    std::snprintf(text, sizeof text, "%u triangles: tree %.1f ms, %u photons %.1f + %.1f ms, trace %.1f ms", s.triangles,
                  s.build_ms, s.photons_stored, s.photon_ms, s.caustic_ms, s.trace_ms);
    return text;
  }

 private:
  void render() { frame_ = render_pool(params_, time_); }

  PoolParams params_;
  const PoolParams start_;
  double time_ = 0.0;
  PoolFrame frame_;
};

}  // namespace

std::unique_ptr<TracedImageStage> make_caustics_pool_stage(const PoolParams& params, SimBackend backend) {
  params.validate();
  if (backend == SimBackend::Cuda)
    throw DeviceError("caustics_pool: no CUDA backend yet (the triangle kd-tree and the tracer run on the CPU); "
                      "run it with --sim cpu");
  return std::make_unique<CausticsPoolCpu>(params);
}

}  // namespace meniscus::sim::raytrace
