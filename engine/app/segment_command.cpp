#include "engine/app/segment_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "engine/profile/cpu_timer.h"
#include "sim/histopyramid/indexed_mesh.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/seed_spheres.h"
#include "sim/levelset/segmentation.h"
#include "sim/levelset/vdb_io.h"
#include "sim/levelset/volume_level_set.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

constexpr float kSegmentBandGamma = 1.5f;
constexpr int kMaskReinitIterations = 4;

std::string flag_text(glm::vec3 v) {
  char text[96];
  std::snprintf(text, sizeof text, "%g,%g,%g", v.x, v.y, v.z);
  return text;
}

// --seed (sample indices, radius in samples of the finest axis) and --seed-mm (millimetres
// from the first sample) as spheres on the level set's grid; each must lie inside the volume.
std::vector<sim::levelset::SeedSphere> seed_spheres(const SegmentOptions& o, const sim::Volume& volume,
                                                    const sim::levelset::SegmentationGrid& grid) {
  const glm::vec3 last = glm::vec3(volume.dims) - 1.0f;
  std::vector<sim::levelset::SeedSphere> spheres;
  const auto add = [&](const char* flag, glm::vec4 given, glm::vec3 index, float radius) {
    if (glm::any(glm::lessThan(index, glm::vec3(0.0f))) || glm::any(glm::greaterThan(index, last)))
      throw InputError(o.input.string() + ": " + flag + " " + flag_text(glm::vec3(given)) +
                       " lies outside the volume (" + std::to_string(volume.dims.x) + " x " +
                       std::to_string(volume.dims.y) + " x " + std::to_string(volume.dims.z) + " samples" +
                       (std::string(flag) == "--seed-mm" ? " at spacings " + flag_text(volume.spacing) + " mm" : "") +
                       ")");
    spheres.push_back(sim::levelset::seed_at_sample(volume, grid, index, radius));
  };
  const float finest = std::min({volume.spacing.x, volume.spacing.y, volume.spacing.z});
  for (const glm::vec4& s : o.seeds) add("--seed", s, glm::vec3(s), s.w);
  for (const glm::vec4& s : o.seeds_mm) add("--seed-mm", s, glm::vec3(s) / volume.spacing, s.w / finest);
  return spheres;
}

// --init-mask: the samples with intensity in [lo, hi], resampled onto the level set's grid and
// made a distance by volume_level_set.h.
void build_from_mask(sim::levelset::SortedTileList& list, const sim::Volume& volume,
                     const sim::levelset::SegmentationGrid& grid, glm::vec2 window) {
  std::vector<float> indicator(volume.values.size());
  size_t inside = 0;
  for (size_t i = 0; i < indicator.size(); ++i) {
    indicator[i] = volume.values[i] >= window.x && volume.values[i] <= window.y ? 1.0f : 0.0f;
    inside += indicator[i] > 0;
  }
  if (inside == 0)
    throw InputError(volume.source + ": --init-mask " + limits::number_text(window.x) + "," +
                     limits::number_text(window.y) + " selects no sample");
  // The mask on the level set's voxels (without the margin, which build_from_volume adds).
  const glm::ivec3 dims = grid.dims;
  std::vector<float> resampled(size_t(dims.x) * dims.y * dims.z);
  for (int z = 0; z < dims.z; ++z)
    for (int y = 0; y < dims.y; ++y)
      for (int x = 0; x < dims.x; ++x) {
        const glm::vec3 index = grid.volume_index(volume, glm::vec3(x, y, z) + float(grid.margin));
        resampled[(size_t(z) * dims.y + y) * dims.x + x] = sim::levelset::sample_trilinear(indicator.data(), glm::ivec3(volume.dims), index);
      }
  sim::levelset::build_from_volume(list, {dims, resampled}, 0.5f, grid.margin, kMaskReinitIterations,
                                   volume.source + ": --init-mask");
}

void write_output(const SegmentOptions& o, sim::levelset::Segmentation& segmentation, const sim::Volume& volume,
                  const sim::levelset::SegmentationGrid& grid, const std::vector<uint8_t>& mask) {
  const std::string ext = o.output.extension().string();
  if (ext == ".nrrd") return sim::write_nrrd_mask(o.output, volume, mask);
  const sim::levelset::SortedTileList& list = segmentation.list();
  // Level-set voxel v lies at origin + (v − margin)·h; OpenVDB puts index v at v·h.
  const glm::ivec3 offset = glm::ivec3(glm::round(volume.origin / grid.voxel_size)) - grid.margin;
  if (ext == ".vdb") return sim::levelset::write_vdb(o.output, list, offset, grid.voxel_size);
  sim::CubeRecordSet records;
  sim::levelset::generate_cube_records(list, records, 0.0f, o.input.string().c_str());
  const glm::vec3 origin = volume.origin + glm::vec3(records.origin - grid.margin) * grid.voxel_size;
  sim::write_mesh(o.output, sim::extract_record_mesh(records, origin, grid.voxel_size));
}

// Why the run stopped, for the summary line ("" at the step limit).
std::string stop_reason(const sim::levelset::SegmentationRun& run, float rms) {
  using Converged = sim::levelset::SegmentationRun::Converged;
  if (run.converged == Converged::kRms) return " (converged: rms change under " + limits::number_text(rms) + ")";
  if (run.converged == Converged::kTileAge)
    return " (converged: no tile made or dropped in " + limits::number_text(run.travel_since_tile_change) +
           " voxels of front travel)";
  return "";
}

}  // namespace

int segment_volume(const SegmentOptions& o) {
  const limits::AllocationScope scope("segmenting " + o.input.string());
  const sim::Volume volume = sim::load_volume(o.input.string());
  const sim::levelset::SegmentationGrid grid = sim::levelset::segmentation_grid(volume);
  sim::levelset::SegmentationParams params;
  params.lower = *o.lower;
  params.upper = *o.upper;
  params.curvature = o.curvature;
  params.term = o.data_term == "tanh" ? sim::levelset::DataTerm::kTanh : sim::levelset::DataTerm::kLinear;
  sim::levelset::check_segmentation_params(params, o.input.string());

  sim::levelset::SortedTileList initial(kSegmentBandGamma);
  const auto spheres = seed_spheres(o, volume, grid);
  if (o.init_mask && !spheres.empty()) throw InputError("meniscus segment: give seeds or --init-mask, not both");
  if (o.init_mask) build_from_mask(initial, volume, grid, *o.init_mask);
  else sim::levelset::build_from_spheres(initial, spheres, o.input.string());
  std::printf("segment: %s: %u x %u x %u samples (spacing %s), level set %d x %d x %d at %g, %zu seeds -> %zu tiles\n",
              o.input.string().c_str(), volume.dims.x, volume.dims.y, volume.dims.z, flag_text(volume.spacing).c_str(),
              grid.dims.x, grid.dims.y, grid.dims.z, grid.voxel_size, spheres.size(), initial.size());

  const auto backend = o.sim == "cuda" ? sim::SimBackend::Cuda : sim::SimBackend::Cpu;
  auto segmentation = sim::levelset::make_segmentation(volume, grid, std::move(initial), params, backend);
  sim::levelset::SegmentationStop stop;
  stop.max_steps = o.steps ? *o.steps : o.max_steps;
  if (!o.steps) {
    stop.rms = o.rms;
    if (o.tile_age) stop.tile_age = *o.tile_age;
  }
  auto last_report = Clock::now();
  const auto run =
      sim::levelset::run_segmentation(*segmentation, stop, [&](const sim::levelset::SegmentationStep& s) {
        if (ms_since(last_report) < 1e3) return;
        std::printf("step %d  active tiles %zu (+%u -%u)  rms change %.4g  dt %.3g  front speed %.3g\n",
                    segmentation->steps(), segmentation->tiles(), s.status.added, s.status.removed, s.rms_change, s.dt,
                    s.front_speed);
        std::fflush(stdout);
        last_report = Clock::now();
      });
  std::printf("step %d  active tiles %zu  rms change %.4g\n", segmentation->steps(), segmentation->tiles(),
              run.last.rms_change);
  const std::string why = stop_reason(run, o.rms);
  const double wall = run.seconds, voxel_updates = run.voxel_updates;
  const std::vector<uint8_t> mask = sim::levelset::inside_mask(segmentation->list(), volume, grid);
  const size_t inside = size_t(std::count(mask.begin(), mask.end(), uint8_t(1)));
  write_output(o, *segmentation, volume, grid, mask);
  std::printf("segment: %d steps%s on %s, %.3f s (%.3g voxel updates/s); %zu samples inside, %.6g mm^3 -> %s\n",
              segmentation->steps(), why.c_str(),
              sim::backend_name(backend), wall, wall > 0 ? voxel_updates / wall : 0.0, inside,
              double(inside) * volume.spacing.x * volume.spacing.y * volume.spacing.z, o.output.string().c_str());
  return 0;
}

}  // namespace meniscus
