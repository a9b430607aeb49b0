#include "sim/levelset/levelset_stage.h"

#include <cstdio>

#include "sim/common/mesh_reader.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/enright.h"
#include "sim/levelset/level_set_box.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/levelset_stage_common.h"
#include "sim/levelset/mesh_level_set.h"
#include "sim/levelset/particle_level_set.h"
#include "sim/levelset/velocity_field.h"
#include "sim/reconstruct/reconstruction.h"

namespace meniscus::sim::levelset {

EvolutionParams evolution_params(const std::string& scheme, float mcf, float speed) {
  EvolutionParams params;
  params.scheme = scheme == "weno5" ? Scheme::kWeno5 : Scheme::kUpwind;
  params.alpha = mcf;
  if (speed != 0.0f) params.normal_speed = [speed](glm::vec3) { return speed; };
  params.rescaling_speed = true;
  return params;
}

std::optional<BrushSpeed> LevelSetStageBase::next_brush() {
  std::optional<Brush> brush = held_;
  for (const BrushStroke& s : params_.strokes)
    if (frame_ >= s.first_frame && frame_ < s.first_frame + s.frames) brush = s.brush;
  ++frame_;
  if (!brush || !(brush->radius > 0.0f) || brush->strength == 0.0f) return std::nullopt;
  const float h = voxel_size();
  return BrushSpeed{(brush->at - voxel0()) / h, brush->radius / (3.0f * h), brush->strength};
}

std::string LevelSetStage::summary() const { return std::to_string(tiles()) + " tiles"; }

ParticleLevelSetParams particle_level_set_params(const LevelSetStageParams& params) {
  ParticleLevelSetParams p;
  p.voxel_size = params.voxel_size;
  p.particle_radius = params.particle_radius;
  p.kernel_radius = params.kernel_radius;
  p.smoothing_steps = params.steps_per_frame;
  p.smoothing_alpha = params.mcf;
  fit_particle_grid(p, params.grid_min, params.grid_max);
  particle_grid_shape(p);  // checks the parameters (InputError naming the field)
  return p;
}

InitialLevelSet make_initial_level_set(const LevelSetStageParams& params) {
  InitialLevelSet out;
  out.evolution = evolution_params(params.scheme, params.mcf, params.speed);
  if (params.enright > 0) {
    // A sphere of radius 0.15 at (0.35, 0.35, 0.35) in the unit cube, voxel i at (i + ½) / n.
    const float n = float(params.enright);
    const glm::vec3 centre = glm::vec3(0.35f * n - 0.5f);
    const float radius = 0.15f * n;
    EnrightSetup setup;  // the benchmark's band, reinitialisation and CFL (enright.h)
    setup.scheme = out.evolution.scheme;
    out.list = std::make_unique<SortedTileList>(setup.gamma, 64, params.precision);
    build_from_sdf(*out.list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, glm::ivec3(0),
                   glm::ivec3(params.enright));
    out.box.dims = glm::uvec3(params.enright);
    out.box.spacing = glm::vec3(1.0f / n);
    out.box.origin = glm::vec3(0.5f / n);
    out.box.source = "enright:" + std::to_string(params.enright);
    out.evolution.velocity = enright_velocity(params.enright);
    out.evolution.rescaling_speed = false;  // as the Enright test does (enright.h)
    out.evolution.cfl = setup.cfl;
    out.evolution.reinit = setup.reinit();
  } else if (!params.points.empty()) {
    const TriangleMesh cloud = read_mesh(params.points);
    std::vector<glm::vec3> points(cloud.vertices.size());
    for (size_t i = 0; i < points.size(); ++i)
      points[i] = glm::vec3(cloud.vertices[i][0], cloud.vertices[i][1], cloud.vertices[i][2]);
    reconstruct::ReconstructionParams reconstruction;
    reconstruction.coarsest = params.start_depth;
    reconstruction.finest = params.depth;
    reconstruction.precision = params.precision;
    const std::string name = params.points.string();
    reconstruct::Reconstruction r = reconstruct::reconstruct_surface(
        points, reconstruction, name.c_str(), [&](const reconstruct::LevelReport& level) {
          std::printf("levelset stage: %s level %d, %d iterations, %zu tiles, E %.4f%%, samples to surface: mean %.4f%%, worst %.3f%%\n",
                      name.c_str(), level.level, level.iterations, level.tiles, level.error_percent,
                      level.mean_distance_percent, level.max_distance_percent);
        });
    // The box of the reconstructed band fixes where it is drawn; the band then evolves inside it.
    const int level = r.frame.finest;
    out.box = level_set_box(*r.list, glm::vec3(r.frame.world_of(glm::vec3(0.0f), level)),
                            float(r.frame.voxel_size(level)), "reconstructed level set", out.min_voxel);
    out.list = std::move(r.list);
  } else if (params.particles) {
    // Rebuilt from the particles every frame, on a grid over the producer's domain; the box is
    // the grid's, so records land where the particles are.
    const ParticleLevelSetParams grid = particle_level_set_params(params);
    out.list = std::make_unique<SortedTileList>(grid.gamma, 64, params.precision);
    out.box.dims = glm::uvec3(grid.voxels);
    out.box.spacing = glm::vec3(grid.voxel_size);
    out.box.origin = grid.origin;
    out.box.source = "level set from particles";
  } else {
    const TriangleMesh mesh = read_mesh(params.mesh);
    const VoxelFrame frame = fit_frame(mesh, params.resolution, params.margin, params.mesh.string());
    out.list = std::make_unique<SortedTileList>(1.5f, 64, params.precision);
    build_from_mesh(*out.list, mesh, frame, params.mesh.string());
    out.box.origin = frame.origin;
    out.box.spacing = glm::vec3(frame.voxel_size);
    out.box.source = params.mesh.string();
    out.box.dims = glm::uvec3(frame.dims);
  }
  return out;
}

LevelSetStageBase::LevelSetStageBase(const LevelSetStageParams& params, InitialLevelSet initial)
    : params_(params),
      list_(std::move(initial.list)),
      evolution_params_(std::move(initial.evolution)),
      box_(std::move(initial.box)),
      min_voxel_(initial.min_voxel) {}

const CubeRecordSet& LevelSetStageBase::records(float phi_iso) {
  if (records_current_ && records_.iso == phi_iso) return records_;
  sync_host_list();
  generate_cube_records(*list_, records_, phi_iso, box_.source.c_str());
  records_current_ = true;
  return records_;
}

glm::vec3 LevelSetStageBase::record_origin() const {
  return box_.origin + glm::vec3(records_.origin - min_voxel_) * box_.spacing;
}

std::unique_ptr<LevelSetStage> make_levelset_stage(const LevelSetStageParams& params, SimBackend backend,
                                                   const Context& context) {
  InitialLevelSet initial = make_initial_level_set(params);
  if (backend == SimBackend::Cuda) return make_levelset_cuda(params, std::move(initial), context);
  return make_levelset_cpu(params, std::move(initial));
}

}  // namespace meniscus::sim::levelset
