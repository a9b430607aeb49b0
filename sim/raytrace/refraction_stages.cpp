#include "sim/raytrace/refraction_stages.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "engine/core/error.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/levelset_stage.h"
#include "sim/photon/caustic_photons_cuda.h"
#include "sim/photon/glass_tank.h"
#include "sim/raytrace/refraction_tracer.h"

namespace meniscus::sim::raytrace {
namespace {

// What a refraction stage renders: its triangles and their media at a time, the view (which the
// panel's sun sliders move) and the controls of what it animates.
class RefractionSource {
 public:
  virtual ~RefractionSource() = default;
  virtual photon::OpticalMesh mesh(double time) const = 0;
  virtual RefractionView& view() = 0;
  virtual std::vector<StageControl> own_controls() = 0;
  virtual bool smooth() const = 0;  // shade with interpolated vertex normals (a scan), or flat faces
  virtual void consume(levelset::LevelSetStage& producer) { (void)producer; }
};

class PoolSource final : public RefractionSource {
 public:
  explicit PoolSource(const PoolParams& params) : params_(params) {}
  photon::OpticalMesh mesh(double time) const override { return pool_scene(params_, time); }
  RefractionView& view() override { return params_.view; }
  // The block's edges are sharp: a vertex normal there would bend the walls.
  bool smooth() const override { return false; }
  std::vector<StageControl> own_controls() override {
    return {{"wave height (m)", &params_.wave_height, 0.0f, 0.2f * params_.depth, false},
            {"wave speed", &params_.wave_speed, 0.0f, std::max(4.0f, params_.wave_speed), false}};
  }

 private:
  PoolParams params_;
};

class SpinningSource final : public RefractionSource {
 public:
  SpinningSource(const TriangleMesh& mesh, const SpinningMeshParams& params, const std::string& source)
      : spinning_(mesh, params, source) {}
  photon::OpticalMesh mesh(double time) const override { return {spinning_.at(time), photon::kWaterInAir}; }
  RefractionView& view() override { return spinning_.params().view; }
  bool smooth() const override { return true; }
  std::vector<StageControl> own_controls() override {
    const float reach = std::max(180.0f, std::abs(spinning_.params().spin_degrees_per_second));
    return {{"spin (deg/s)", &spinning_.params().spin_degrees_per_second, -reach, reach, false}};
  }

 private:
  SpinningMesh spinning_;
};

// The zero iso-surface of the level set the stage consumes, as its cube records triangulate it.
class SurfaceSource final : public RefractionSource {
 public:
  SurfaceSource(const RefractionView& view, const SurfaceTank& tank) : view_(view), tank_(tank) {}
  void consume(levelset::LevelSetStage& producer) override { producer_ = &producer; }
  photon::OpticalMesh mesh(double) const override {
    photon::OpticalMesh out;
    photon::TriangleSoup& soup = out.mesh;
    if (!producer_) return out;
    const IndexedMesh mesh =
        extract_record_mesh(producer_->records(0.0f), producer_->record_origin(), producer_->voxel_size());
    soup.vertices.assign(mesh.positions.begin(), mesh.positions.end());
    soup.indices.reserve(mesh.triangles.size() * 3);
    for (const glm::uvec3& t : mesh.triangles) soup.indices.insert(soup.indices.end(), {t.x, t.y, t.z});
    if (tank_.wall > 0.0f && !soup.indices.empty())
      photon::add_empty_glass_tank(out, tank_.inner_min, tank_.inner_max, tank_.wall);
    return out;
  }
  RefractionView& view() override { return view_; }
  bool smooth() const override { return true; }
  std::vector<StageControl> own_controls() override { return {}; }

 private:
  RefractionView view_;
  SurfaceTank tank_;
  levelset::LevelSetStage* producer_ = nullptr;
};

// The frames of a source, traced by either backend's RefractionTracer.
class RefractionStage final : public TracedImageStage {
 public:
  using MakeSource = std::function<std::unique_ptr<RefractionSource>()>;
  RefractionStage(MakeSource make, std::unique_ptr<RefractionTracer> tracer)
      : make_(std::move(make)), source_(make_()), tracer_(std::move(tracer)) {
    render();
  }

  SimBackend backend() const override { return tracer_->backend(); }
  uint32_t width() const override { return source_->view().trace.width; }
  uint32_t height() const override { return source_->view().trace.height; }

  void reset() override {
    source_ = make_();
    time_ = 0.0;
    render();
  }

  std::vector<StageControl> controls() override {
    RefractionView& view = source_->view();
    std::vector<StageControl> all{{"sun elevation (deg)", &view.sun_elevation_degrees, 10.0f, 90.0f, false},
                                  {"sun azimuth (deg)", &view.sun_azimuth_degrees, -360.0f, 360.0f, false}};
    for (StageControl& c : source_->own_controls()) all.push_back(std::move(c));
    return all;
  }

  void consume_level_set(levelset::LevelSetStage& producer) override { source_->consume(producer); }

  // Paused (dt 0), the last frame stands unless the panel moved one of the controls.
  void step(double dt) override {
    time_ += dt;
    if (dt == 0.0 && control_values() == rendered_with_) return;
    render();
  }

  void write(SharedBuffer& target) override { tracer_->write(target); }
  // With a device trace: the tree's build (waited for), the photons and their estimate, and the
  // device's trace (a frame late).
  std::optional<double> device_ms() const override {
    const std::optional<double> trace = tracer_->device_ms();
    if (!trace) return std::nullopt;
    const RefractionFrameStats& s = frame_.stats;
    return s.build_ms + s.photon_ms + s.caustic_ms + *trace;
  }
  std::optional<GpuWait> gpu_wait() const override { return tracer_->gpu_wait(); }

  std::string summary() const override {
    const RefractionFrameStats& s = frame_.stats;
    char text[160];
    std::snprintf(text, sizeof text, "%u triangles: tree %.1f ms, %u photons %.1f + %.1f ms, trace %.1f ms",
                  s.triangles, s.build_ms, s.photons_stored, s.photon_ms, s.caustic_ms,
                  tracer_->device_ms().value_or(s.trace_ms));
    return text;
  }

 private:
  void render() {
    const photon::OpticalMesh scene = source_->mesh(time_);
    const photon::TriangleSoup& mesh = scene.mesh;
    if (mesh.indices.empty()) {  // a surface before its producer was consumed, or an empty one: black
      frame_ = {};
      tracer_->clear(width(), height());
      rendered_with_.clear();  // no frame to keep: the next step renders whatever dt is
      return;
    }
    frame_ =
        render_refraction(mesh, source_->view(), source_->smooth() ? vertex_normals(mesh) : std::vector<glm::vec3>{},
                          scene.optics, tracer_.get());
    rendered_with_ = control_values();
  }

  std::vector<float> control_values() {
    std::vector<float> values;
    for (const StageControl& c : controls()) values.push_back(*c.value);
    return values;
  }

  MakeSource make_;
  std::unique_ptr<RefractionSource> source_;
  std::unique_ptr<RefractionTracer> tracer_;
  double time_ = 0.0;
  RefractionFrame frame_;
  std::vector<float> rendered_with_;  // the controls' values the frame was rendered with
};

std::unique_ptr<TracedImageStage> make_stage(RefractionStage::MakeSource make, const RefractionView& view,
                                             SimBackend backend, const Context* context, const char* type) {
  if (backend == SimBackend::Cpu)
    return std::make_unique<RefractionStage>(std::move(make), make_refraction_tracer_cpu());
  if (view.photon_neighbours > photon::kCudaMaxCausticK)
    throw InputError(
        std::string(type) + ": photon_neighbours must be at most " + std::to_string(photon::kCudaMaxCausticK) +
        " on the CUDA backend (the device estimate's list), not " + std::to_string(view.photon_neighbours));
  if (!context) throw DeviceError(std::string(type) + " (cuda): no Vulkan context to share the traced image with");
  return std::make_unique<RefractionStage>(std::move(make), make_refraction_tracer_cuda(*context));
}

}  // namespace

std::unique_ptr<TracedImageStage> make_caustics_pool_stage(const PoolParams& params, SimBackend backend,
                                                           const Context* context) {
  params.validate();
  return make_stage([params] { return std::make_unique<PoolSource>(params); }, params.view, backend, context,
                    "caustics_pool");
}

std::unique_ptr<TracedImageStage> make_refracting_surface_stage(const RefractionView& view, SimBackend backend,
                                                                const Context* context, const SurfaceTank& tank) {
  view.validate();
  if (tank.wall != 0.0f) photon::validate_empty_glass_tank(tank.inner_min, tank.inner_max, tank.wall);
  return make_stage([view, tank] { return std::make_unique<SurfaceSource>(view, tank); }, view, backend, context,
                    "refracting_surface");
}

std::unique_ptr<TracedImageStage> make_spinning_mesh_stage(const TriangleMesh& mesh, const SpinningMeshParams& params,
                                                           const std::string& source, SimBackend backend,
                                                           const Context* context) {
  params.validate();
  // An empty or flat mesh is an InputError from the stage's first source.
  return make_stage([mesh, params, source] { return std::make_unique<SpinningSource>(mesh, params, source); },
                    params.view, backend, context, "refracting_mesh");
}

}  // namespace meniscus::sim::raytrace
