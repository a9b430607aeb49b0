#include "engine/app/levelset_command.h"
#include "engine/app/levelset_stage.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include "engine/core/error.h"
#include "sim/common/mesh_reader.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/mesh_level_set.h"
#include "sim/levelset/vdb_io.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr int kMeshMargin = 8;           // voxels of room around a mesh for the surface to move
constexpr int kConvergedSteps = 20;      // --until-converged: this many steps without a tile change
constexpr float kBandGamma = 1.5f;

struct LoadedLevelSet {
  std::unique_ptr<sim::levelset::SortedTileList> list;
  glm::ivec3 voxel_offset{0};
  float voxel_size = 1.0f;
};

LoadedLevelSet load(const LevelSetOptions& o) {
  LoadedLevelSet out;
  if (o.input.extension() == ".vdb") {
    sim::levelset::LevelSetFile file = sim::levelset::read_vdb(o.input);
    out.list = std::move(file.list);
    out.voxel_offset = file.voxel_offset;
    out.voxel_size = file.voxel_size;
    return out;
  }
  const sim::TriangleMesh mesh = sim::read_mesh(o.input);
  sim::levelset::VoxelFrame frame = sim::levelset::fit_frame(mesh, o.resolution, kMeshMargin, o.input.string());
  // Put voxel (0, 0, 0) on OpenVDB's lattice (world = index * voxel size), so the .vdb written
  // later holds the surface exactly where the mesh was.
  out.voxel_offset = glm::ivec3(glm::floor(frame.origin / frame.voxel_size));
  frame.origin = glm::vec3(out.voxel_offset) * frame.voxel_size;
  out.voxel_size = frame.voxel_size;
  out.list = std::make_unique<sim::levelset::SortedTileList>(kBandGamma);
  const auto start = Clock::now();
  const auto stats = sim::levelset::build_from_mesh(*out.list, mesh, frame, o.input.string());
  std::printf("levelset: %s: %zu triangles -> %zu tiles (%zu band voxels), voxel %.6g, %.0f ms\n", o.input.string().c_str(),
              mesh.triangles.size(), stats.tiles, stats.band_voxels, frame.voxel_size, 1e3 * seconds_since(start));
  return out;
}

}  // namespace

int evolve_level_set(const LevelSetOptions& o) {
  if (o.sim == "cuda")
    throw DeviceError("meniscus levelset --sim cuda: the CUDA (GPU-STL) level-set backend is not built yet; use --sim cpu");
  LoadedLevelSet level_set = load(o);
  sim::levelset::SortedTileList& list = *level_set.list;

  sim::levelset::LevelSetEvolution evolution(evolution_params(o.scheme, o.mcf, o.speed));

  const int step_limit = o.steps ? *o.steps : (o.time || o.until_converged ? o.max_steps : 0);
  const double end_time = o.time ? double(*o.time) : std::numeric_limits<double>::infinity();
  const auto start = Clock::now();
  auto last_report = start;
  double t = 0.0, voxel_updates = 0.0;
  int steps = 0, quiet = 0;
  while (steps < step_limit && t < end_time - 1e-9) {
    voxel_updates += double(list.size()) * sim::levelset::kTileVoxels;
    const float dt = evolution.step(list, float(t), float(end_time - t));
    t += dt;
    ++steps;
    const sim::levelset::TileStatus& s = evolution.last_status();
    quiet = (s.added == 0 && s.removed == 0) ? quiet + 1 : 0;
    if (list.size() == 0) {
      std::printf("levelset: the surface vanished at step %d (t = %.4g)\n", steps, t);
      break;
    }
    if (seconds_since(last_report) > 1.0 || steps == step_limit) {
      std::printf("step %d  t %.4g  dt %.3g  tiles %zu (+%u -%u)  %.2f ms/step\n", steps, t, dt, list.size(), s.added,
                  s.removed, 1e3 * seconds_since(start) / steps);
      std::fflush(stdout);
      last_report = Clock::now();
    }
    if (o.until_converged && quiet >= kConvergedSteps) {
      std::printf("levelset: converged after %d steps (no tile added or removed for %d steps)\n", steps, kConvergedSteps);
      break;
    }
  }
  const double wall = seconds_since(start);
  sim::levelset::write_vdb(o.output, list, level_set.voxel_offset, level_set.voxel_size);
  std::printf("levelset: %d steps, t = %.4g, %.3f s (%.2f ms/step, %.3g voxel updates/s), %zu tiles -> %s\n", steps, t,
              wall, steps ? 1e3 * wall / steps : 0.0, wall > 0 ? voxel_updates / wall : 0.0, list.size(),
              o.output.string().c_str());
  return 0;
}

}  // namespace meniscus
