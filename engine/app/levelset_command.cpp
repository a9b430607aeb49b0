#include "engine/app/levelset_command.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "engine/profile/cpu_timer.h"
#include "sim/common/mesh_reader.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/levelset_stage.h"
#include "sim/levelset/mesh_level_set.h"
#include "sim/levelset/vdb_io.h"
#include "sim/levelset/volume_level_set.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

constexpr int kMeshMargin = 8;           // voxels of room around a mesh for the surface to move
constexpr int kConvergedSteps = 20;      // --until-converged: this many steps without a tile change
constexpr float kBandGamma = 1.5f;
constexpr int kVolumeMargin = 2;             // outside voxels around a volume, closing cut surfaces
constexpr int kVolumeReinitIterations = 4;   // pseudo-time steps making a volume's φ a distance

struct LoadedLevelSet {
  std::unique_ptr<sim::levelset::SortedTileList> list;
  glm::ivec3 voxel_offset{0};
  float voxel_size = 1.0f;
};

bool is_volume(const std::filesystem::path& input) {
  const std::string ext = input.extension().string();
  return ext == ".nrrd" || ext == ".nhdr" || ext == ".vtk" || input.string().find(':') != std::string::npos;
}

// A dense volume's iso-surface: one level-set voxel per sample (plus a margin), so the .vdb
// written later has OpenVDB voxel = sample index, at the volume's x spacing.
LoadedLevelSet load_volume(const LevelSetOptions& o) {
  if (!o.iso) throw InputError("meniscus levelset " + o.input.string() + ": a volume needs --iso V");
  const auto start = Clock::now();
  const sim::Volume volume = sim::load_volume(o.input.string());
  if (volume.spacing.y != volume.spacing.x || volume.spacing.z != volume.spacing.x)
    std::printf("levelset: %s: spacing %g x %g x %g is not uniform; the level set's voxels are its samples\n",
                o.input.string().c_str(), volume.spacing.x, volume.spacing.y, volume.spacing.z);
  LoadedLevelSet out;
  out.list = std::make_unique<sim::levelset::SortedTileList>(kBandGamma, 64, o.precision);
  out.voxel_offset = glm::ivec3(-kVolumeMargin);
  out.voxel_size = volume.spacing.x;
  const auto stats = sim::levelset::build_from_volume(*out.list, {glm::ivec3(volume.dims), volume.values}, *o.iso,
                                                      kVolumeMargin, kVolumeReinitIterations, o.input.string());
  std::printf("levelset: %s: %u x %u x %u samples, iso %g -> %zu tiles (%zu voxels next to the surface), %.0f ms\n",
              o.input.string().c_str(), volume.dims.x, volume.dims.y, volume.dims.z, *o.iso, stats.tiles,
              stats.crossing_voxels, ms_since(start));
  return out;
}

LoadedLevelSet load(const LevelSetOptions& o) {
  LoadedLevelSet out;
  if (o.input.extension() == ".vdb") {
    sim::levelset::LevelSetFile file = sim::levelset::read_vdb(o.input);
    out.list = std::move(file.list);
    if (o.precision != out.list->precision()) *out.list = out.list->stored_as(o.precision);
    out.voxel_offset = file.voxel_offset;
    out.voxel_size = file.voxel_size;
    return out;
  }
  if (is_volume(o.input)) return load_volume(o);
  if (o.iso) throw InputError("--iso: only for volumes (.nrrd, .nhdr, .vtk, cayley:N, ...), not for '" + o.input.string() + "'");
  const sim::TriangleMesh mesh = sim::read_mesh(o.input);
  sim::levelset::VoxelFrame frame = sim::levelset::fit_frame(mesh, o.resolution, kMeshMargin, o.input.string());
  // Put voxel (0, 0, 0) on OpenVDB's lattice (world = index * voxel size), so the .vdb written
  // later holds the surface exactly where the mesh was.
  out.voxel_offset = glm::ivec3(glm::floor(frame.origin / frame.voxel_size));
  frame.origin = glm::vec3(out.voxel_offset) * frame.voxel_size;
  out.voxel_size = frame.voxel_size;
  out.list = std::make_unique<sim::levelset::SortedTileList>(kBandGamma, 64, o.precision);
  const auto start = Clock::now();
  const auto stats = sim::levelset::build_from_mesh(*out.list, mesh, frame, o.input.string());
  std::printf("levelset: %s: %zu triangles -> %zu tiles (%zu band voxels), voxel %.6g, %.0f ms\n",
              o.input.string().c_str(), mesh.triangles.size(), stats.tiles, stats.band_voxels, frame.voxel_size,
              ms_since(start));
  return out;
}

}  // namespace

int evolve_level_set(const LevelSetOptions& o) {
  // --sim cuda: the same evolution on the GPU-STL (sim/levelset/gpu_stl_evolution.h); the list
  // comes back from the device for the .vdb at the end.
  const bool on_gpu = o.sim == "cuda";
  if (std::string why; on_gpu && !sim::levelset::gpu_stl_available(&why))
    throw DeviceError("meniscus levelset --sim cuda: " + why + "; use --sim cpu");
  const limits::AllocationScope scope("building a level set from " + o.input.string());
  LoadedLevelSet level_set = load(o);
  sim::levelset::SortedTileList& list = *level_set.list;

  const sim::levelset::EvolutionParams params = sim::levelset::evolution_params(o.scheme, o.mcf, o.speed);
  std::optional<sim::levelset::LevelSetEvolution> cpu;
  std::optional<sim::levelset::GpuLevelSetEvolution> gpu;
  std::unique_ptr<sim::levelset::GpuSortedTileList> gpu_list;
  if (on_gpu) {
    gpu.emplace(sim::levelset::from_cpu_params(params, o.speed));
    gpu_list = std::make_unique<sim::levelset::GpuSortedTileList>(list);
  } else {
    cpu.emplace(params);
  }
  const auto step = [&](float t, float max_dt) { return on_gpu ? gpu->step(*gpu_list, t, max_dt) : cpu->step(list, t, max_dt); };
  const auto tiles = [&] { return on_gpu ? gpu_list->size() : list.size(); };

  const int step_limit = o.steps ? *o.steps : (o.time || o.until_converged ? o.max_steps : 0);
  const double end_time = o.time ? double(*o.time) : std::numeric_limits<double>::infinity();
  const auto start = Clock::now();
  auto last_report = start;
  double t = 0.0, voxel_updates = 0.0;
  int steps = 0, quiet = 0;
  while (steps < step_limit && t < end_time - 1e-9) {
    voxel_updates += double(tiles()) * sim::levelset::kTileVoxels;
    const float dt = step(float(t), float(end_time - t));
    t += dt;
    ++steps;
    const sim::levelset::TileStatus& s = on_gpu ? gpu->last_status() : cpu->last_status();
    quiet = (s.added == 0 && s.removed == 0) ? quiet + 1 : 0;
    if (tiles() == 0) {
      std::printf("levelset: the surface vanished at step %d (t = %.4g)\n", steps, t);
      break;
    }
    if (ms_since(last_report) > 1e3 || steps == step_limit) {
      std::printf("step %d  t %.4g  dt %.3g  tiles %zu (+%u -%u)  %.2f ms/step\n", steps, t, dt, tiles(), s.added,
                  s.removed, ms_since(start) / steps);
      std::fflush(stdout);
      last_report = Clock::now();
    }
    if (o.until_converged && quiet >= kConvergedSteps) {
      std::printf("levelset: converged after %d steps (no tile added or removed for %d steps)\n", steps, kConvergedSteps);
      break;
    }
  }
  const double wall = ms_since(start) / 1e3;
  if (on_gpu) list = gpu_list->download();
  sim::levelset::write_vdb(o.output, list, level_set.voxel_offset, level_set.voxel_size);
  std::printf("levelset: %d steps, t = %.4g, %.3f s (%.2f ms/step, %.3g voxel updates/s), %zu tiles -> %s\n", steps, t,
              wall, steps ? 1e3 * wall / steps : 0.0, wall > 0 ? voxel_updates / wall : 0.0, list.size(),
              o.output.string().c_str());
  return 0;
}

}  // namespace meniscus
