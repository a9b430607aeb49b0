#include "engine/app/levelset_stage.h"

#include "engine/app/data_path.h"
#include "sim/common/mesh_reader.h"
#include "sim/levelset/dense_sampling.h"
#include "sim/levelset/mesh_level_set.h"

namespace meniscus {

LevelSetStageSettings read_levelset_settings(const ParamTable& t, const Scene& scene) {
  LevelSetStageSettings s;
  s.mesh = resolve_data_path(t.required_string("mesh"), scene.source);
  s.resolution = int(t.integer("resolution", s.resolution, 16, 1024));
  s.margin = int(t.integer("margin", s.margin, 2, 256));
  s.mcf = float(t.number("mcf", s.mcf, 0.0, 100.0));
  s.speed = float(t.number("speed", s.speed, -100.0, 100.0));
  s.scheme = t.string("scheme", s.scheme, {"upwind", "weno5"});
  s.steps_per_frame = int(t.integer("steps_per_frame", s.steps_per_frame, 0, 1000));
  t.finish();
  return s;
}

LevelSetStage::LevelSetStage(const LevelSetStageSettings& settings) : settings_(settings) {
  const sim::TriangleMesh mesh = sim::read_mesh(settings.mesh);
  const sim::levelset::VoxelFrame frame =
      sim::levelset::fit_frame(mesh, settings.resolution, settings.margin, settings.mesh.string());
  list_ = std::make_unique<sim::levelset::SortedTileList>(1.5f);
  sim::levelset::build_from_mesh(*list_, mesh, frame, settings.mesh.string());
  dims_ = frame.dims;
  volume_.dims = glm::uvec3(dims_);
  volume_.origin = frame.origin;
  volume_.spacing = glm::vec3(frame.voxel_size);
  volume_.source = settings.mesh.string();
  sim::levelset::EvolutionParams params;
  params.scheme = settings.scheme == "weno5" ? sim::levelset::Scheme::kWeno5 : sim::levelset::Scheme::kUpwind;
  params.alpha = settings.mcf;
  if (settings.speed != 0.0f) params.normal_speed = [speed = settings.speed](glm::vec3) { return speed; };
  params.rescaling_speed = true;
  evolution_ = std::make_unique<sim::levelset::LevelSetEvolution>(params);
}

void LevelSetStage::step() {
  for (int k = 0; k < settings_.steps_per_frame && list_->size() > 0; ++k)
    time_ += evolution_->step(*list_, float(time_));
  volume_current_ = false;
}

const sim::Volume& LevelSetStage::volume() {
  if (volume_current_) return volume_;
  sim::levelset::sample_dense(*list_, glm::ivec3(0), dims_, phi_);
  volume_.values.resize(phi_.size());
  for (size_t i = 0; i < phi_.size(); ++i) volume_.values[i] = -phi_[i];
  volume_current_ = true;
  return volume_;
}

}  // namespace meniscus
