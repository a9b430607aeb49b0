#include "engine/app/levelset_stage.h"

#include <cstdio>

#include "engine/app/data_path.h"
#include "engine/app/level_set_volume.h"
#include "sim/reconstruct/reconstruction.h"
#include "sim/common/mesh_reader.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/velocity_field.h"
#include "sim/levelset/mesh_level_set.h"

namespace meniscus {

sim::levelset::EvolutionParams evolution_params(const std::string& scheme, float mcf, float speed) {
  sim::levelset::EvolutionParams params;
  params.scheme = scheme == "weno5" ? sim::levelset::Scheme::kWeno5 : sim::levelset::Scheme::kUpwind;
  params.alpha = mcf;
  if (speed != 0.0f) params.normal_speed = [speed](glm::vec3) { return speed; };
  params.rescaling_speed = true;
  return params;
}

LevelSetStageSettings read_levelset_settings(const ParamTable& t, const Scene& scene) {
  LevelSetStageSettings s;
  if (int(t.has("mesh")) + int(t.has("points")) + int(t.has("enright")) != 1)
    t.fail("mesh", "give exactly one of mesh (a closed surface), points (a cloud to reconstruct) or enright (a resolution)");
  s.enright = int(t.integer("enright", 0, 16, 512));
  if (t.has("mesh")) s.mesh = resolve_data_path(t.string("mesh", ""), scene.source);
  if (t.has("points")) s.points = resolve_data_path(t.string("points", ""), scene.source);
  s.start_depth = int(t.integer("start_depth", s.start_depth, 2, 13));
  s.depth = int(t.integer("depth", s.depth, s.start_depth, 13));
  s.resolution = int(t.integer("resolution", s.resolution, 16, 1024));
  s.margin = int(t.integer("margin", s.margin, 2, 256));
  s.mcf = float(t.number("mcf", s.mcf, 0.0, 100.0));
  s.speed = float(t.number("speed", s.speed, -100.0, 100.0));
  s.scheme = t.string("scheme", s.scheme, {"upwind", "weno5"});
  s.steps_per_frame = int(t.integer("steps_per_frame", s.steps_per_frame, 0, 1000));
  t.finish();
  return s;
}

LevelSetStage::LevelSetStage(const LevelSetStageSettings& settings, sim::SimBackend backend) : settings_(settings) {
  sim::levelset::EvolutionParams params = evolution_params(settings.scheme, settings.mcf, settings.speed);
  if (settings.enright > 0) {
    // A sphere of radius 0.15 at (0.35, 0.35, 0.35) in the unit cube, voxel i at (i + ½) / n.
    const float n = float(settings.enright);
    const glm::vec3 centre = glm::vec3(0.35f * n - 0.5f), radius(0.15f * n);
    list_ = std::make_unique<sim::levelset::SortedTileList>(1.5f);
    sim::levelset::build_from_sdf(
        *list_, [&](glm::vec3 p) { return glm::length(p - centre) - radius.x; }, glm::ivec3(0), glm::ivec3(settings.enright));
    box_.dims = glm::uvec3(settings.enright);
    box_.spacing = glm::vec3(1.0f / n);
    box_.origin = glm::vec3(0.5f / n);
    box_.source = "enright:" + std::to_string(settings.enright);
    params.velocity = sim::levelset::enright_velocity(settings.enright);
    params.rescaling_speed = false;  // as the Enright test does (sim/levelset/enright.h)
  } else if (!settings.points.empty()) {
    const sim::TriangleMesh cloud = sim::read_mesh(settings.points);
    std::vector<glm::vec3> points(cloud.vertices.size());
    for (size_t i = 0; i < points.size(); ++i)
      points[i] = glm::vec3(cloud.vertices[i][0], cloud.vertices[i][1], cloud.vertices[i][2]);
    sim::reconstruct::ReconstructionParams reconstruction;
    reconstruction.coarsest = settings.start_depth;
    reconstruction.finest = settings.depth;
    const std::string name = settings.points.string();
    sim::reconstruct::Reconstruction r = sim::reconstruct::reconstruct_surface(
        points, reconstruction, name.c_str(), [&](const sim::reconstruct::LevelReport& level) {
          std::printf("levelset stage: %s level %d, %d iterations, %zu tiles, E %.4f%%\n", name.c_str(), level.level,
                      level.iterations, level.tiles, level.error_percent);
        });
    // The box of the reconstructed band fixes where it is drawn; the band then evolves inside it.
    const int level = r.frame.finest;
    box_ = level_set_box(*r.list, glm::vec3(r.frame.world_of(glm::vec3(0.0f), level)), float(r.frame.voxel_size(level)),
                         "reconstructed level set", min_voxel_);
    list_ = std::move(r.list);
  } else {
    const sim::TriangleMesh mesh = sim::read_mesh(settings.mesh);
    const sim::levelset::VoxelFrame frame =
        sim::levelset::fit_frame(mesh, settings.resolution, settings.margin, settings.mesh.string());
    list_ = std::make_unique<sim::levelset::SortedTileList>(1.5f);
    sim::levelset::build_from_mesh(*list_, mesh, frame, settings.mesh.string());
    box_.origin = frame.origin;
    box_.spacing = glm::vec3(frame.voxel_size);
    box_.source = settings.mesh.string();
    box_.dims = glm::uvec3(frame.dims);
  }
  if (backend == sim::SimBackend::Cuda) {
    // The same equation as data for the device: F a constant, U Enright's field or none.
    sim::levelset::FieldVelocity velocity;
    if (settings.enright > 0) velocity = {sim::levelset::FieldVelocity::Kind::kEnright, glm::vec3(0.0f), settings.enright};
    gpu_evolution_ = std::make_unique<sim::levelset::GpuLevelSetEvolution>(
        sim::levelset::from_cpu_params(params, settings.speed, velocity));
    gpu_list_ = std::make_unique<sim::levelset::GpuSortedTileList>(*list_);
  } else {
    evolution_ = std::make_unique<sim::levelset::LevelSetEvolution>(params);
  }
}

bool LevelSetStage::step() {
  int steps = 0;
  if (gpu_list_) {
    for (; steps < settings_.steps_per_frame && gpu_list_->size() > 0; ++steps)
      time_ += gpu_evolution_->step(*gpu_list_, float(time_));
    // The records are made on the host from the list (cube_records.h): one download a frame.
    if (steps > 0) *list_ = gpu_list_->download();
  } else {
    for (; steps < settings_.steps_per_frame && list_->size() > 0; ++steps) time_ += evolution_->step(*list_, float(time_));
  }
  if (steps > 0) records_current_ = false;
  return steps > 0;
}

const sim::CubeRecordSet& LevelSetStage::records(float phi_iso) {
  if (records_current_ && records_.iso == phi_iso) return records_;
  sim::levelset::generate_cube_records(*list_, records_, phi_iso, box_.source.c_str());
  records_current_ = true;
  return records_;
}

glm::vec3 LevelSetStage::record_origin() const {
  return box_.origin + glm::vec3(records_.origin - min_voxel_) * box_.spacing;
}

}  // namespace meniscus
