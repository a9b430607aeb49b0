#include "sim/levelset/segmentation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "sim/levelset/dense_sampling.h"

namespace meniscus::sim::levelset {

void check_segmentation_params(const SegmentationParams& p, const std::string& what) {
  if (!std::isfinite(p.lower)) throw InputError(what + ": --lower must be a finite number");
  if (!std::isfinite(p.upper)) throw InputError(what + ": --upper must be a finite number");
  if (!(p.lower < p.upper))
    throw InputError(what + ": --lower (" + limits::number_text(p.lower) + ") must be below --upper (" +
                     limits::number_text(p.upper) + ")");
  if (!(p.curvature >= 0.0f && p.curvature < 1.0f))
    throw InputError(what + ": --curvature must be in [0, 1) (the fraction of curvature flow; 1 leaves no data term)");
  if (!(p.cfl > 0.0f && p.cfl <= 1.0f)) throw InputError(what + ": cfl must be in (0, 1]");
}

SegmentationGrid segmentation_grid(const Volume& volume, float voxel_size) {
  const std::string& name = volume.source;
  if (volume.dims.x == 0 || volume.dims.y == 0 || volume.dims.z == 0) throw InputError(name + ": the volume is empty");
  const glm::vec3 s = volume.spacing;
  if (!(s.x > 0 && s.y > 0 && s.z > 0) || !std::isfinite(s.x + s.y + s.z))
    throw InputError(name + ": spacings must be positive and finite to segment");
  SegmentationGrid grid;
  grid.voxel_size = voxel_size > 0.0f ? voxel_size : std::min({s.x, s.y, s.z});
  const glm::vec3 extent = (glm::vec3(volume.dims) - 1.0f) * s / grid.voxel_size;
  grid.dims = glm::ivec3(glm::ceil(extent - 1e-4f)) + 1;
  const glm::ivec3 far = grid.dims + 2 * grid.margin;
  require_representable({far.x / kTileSide, far.y / kTileSide, far.z / kTileSide}, name + ": level-set grid");
  return grid;
}

ThresholdSpeed threshold_speed(const Volume& volume, const SegmentationGrid& grid, const SegmentationParams& params) {
  ThresholdSpeed s;
  s.volume = volume.values.data();
  s.dims = glm::ivec3(volume.dims);
  s.scale = grid.voxel_size / volume.spacing;
  s.offset = -float(grid.margin) * s.scale;
  s.lower = params.lower;
  s.upper = params.upper;
  s.propagation = 1.0f - params.curvature;
  s.term = params.term;
  return s;
}

void Segmentation::add_seed(const SeedSphere& seed, const std::string& what) {
  SortedTileList next = list();
  add_sphere(next, seed, what);
  before_seed_.push_back(list());
  replace_list(std::move(next));
}

bool Segmentation::undo_seed() {
  if (before_seed_.empty()) return false;
  replace_list(std::move(before_seed_.back()));
  before_seed_.pop_back();
  return true;
}

EvolutionParams segmentation_evolution(const Volume& volume, const SegmentationGrid& grid,
                                       const SegmentationParams& params) {
  EvolutionParams e;
  e.scheme = params.scheme;
  e.threshold = threshold_speed(volume, grid, params);
  e.alpha = params.curvature;
  e.extend_normal_speed = true;
  e.effective_normal_cfl = true;
  e.rescaling_speed = true;
  e.rescaling_weight = segmentation_rescaling_weight(params);
  e.cfl = params.cfl;
  return e;
}

float segmentation_rescaling_weight(const SegmentationParams& params) {
  return 0.1f * (1.0f - params.curvature) * 0.5f * (params.upper - params.lower);
}

std::unique_ptr<Segmentation> make_segmentation(const Volume& volume, const SegmentationGrid& grid,
                                                SortedTileList initial, const SegmentationParams& params,
                                                SimBackend backend) {
  if (volume.values.size() != size_t(volume.dims.x) * volume.dims.y * volume.dims.z)
    throw InputError(volume.source + ": the sample count does not match the dimensions");
  for (const float v : volume.values)
    if (!std::isfinite(v)) throw InputError(volume.source + ": a sample is not a finite number (NaN or infinity)");
  if (backend == SimBackend::Cuda) return make_segmentation_cuda(volume, grid, std::move(initial), params);
  return make_segmentation_cpu(volume, grid, std::move(initial), params);
}

SegmentationRun run_segmentation(Segmentation& segmentation, const SegmentationStop& stop,
                                 const std::function<void(const SegmentationStep&)>& after_step) {
  SegmentationRun run;
  const auto start = std::chrono::steady_clock::now();
  while (run.steps < stop.max_steps && segmentation.tiles() > 0) {
    run.voxel_updates += double(segmentation.tiles()) * kTileVoxels;
    run.last = segmentation.step();
    ++run.steps;
    const SegmentationStep& s = run.last;
    // Neither front speed bounds the step's travel alone: curvature moves a front the data
    // term holds still.
    run.travel_since_tile_change = s.status.added || s.status.removed
                                    ? 0.0
                                    : run.travel_since_tile_change + double(s.dt) * (double(s.front_speed) + s.front_curvature);
    if (stop.rms >= 0 && s.front_voxels > 0 && s.rms_change <= stop.rms)
      run.converged = SegmentationRun::Converged::kRms;
    else if (stop.tile_age >= 0 && run.travel_since_tile_change > stop.tile_age)
      run.converged = SegmentationRun::Converged::kTileAge;
    if (after_step) after_step(s);
    if (run.converged != SegmentationRun::Converged::kNo) break;
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

double itk_rms_change(double squares, size_t count, float front_speed, float front_curvature, float dt) {
  if (count == 0) return 0.0;
  const double rms = std::sqrt(squares / double(count));
  // ITK's LevelSetFunction::ComputeGlobalTimeStep: min(WaveDT / the largest propagation
  // speed, DT / the largest curvature speed), both 1/6 in 3-D.
  constexpr double kItkDt = 1.0 / 6.0;
  double itk_dt = std::numeric_limits<double>::infinity();
  if (front_speed > 0.0f) itk_dt = kItkDt / front_speed;
  if (front_curvature > 0.0f) itk_dt = std::min(itk_dt, kItkDt / front_curvature);
  if (!std::isfinite(itk_dt) || !(dt > 0.0f)) return rms;
  return rms * itk_dt / dt;
}

Volume resampled_cubic(const Volume& v) {
  const float h = std::min({v.spacing.x, v.spacing.y, v.spacing.z});
  Volume out;
  out.spacing = glm::vec3(h);
  out.origin = v.origin;
  out.source = v.source + " (resampled to " + std::to_string(h) + ")";
  out.dims = glm::uvec3(glm::floor((glm::vec3(v.dims) - 1.0f) * v.spacing / h + 1e-3f)) + 1u;
  out.values.resize(size_t(out.dims.x) * out.dims.y * out.dims.z);
  for (uint32_t z = 0; z < out.dims.z; ++z)
    for (uint32_t y = 0; y < out.dims.y; ++y)
      for (uint32_t x = 0; x < out.dims.x; ++x)
        out.values[out.index(x, y, z)] = sample_trilinear(v.values.data(), glm::ivec3(v.dims), glm::vec3(x, y, z) * h / v.spacing);
  return out;
}

glm::vec3 resampled_cubic_index(const Volume& v, glm::vec3 index) {
  return index * v.spacing / std::min({v.spacing.x, v.spacing.y, v.spacing.z});
}

SeedSphere seed_at_sample(const Volume& volume, const SegmentationGrid& grid, glm::vec3 index, float radius) {
  const float finest = std::min({volume.spacing.x, volume.spacing.y, volume.spacing.z});
  return {grid.voxel_of_index(volume, index), radius * finest / grid.voxel_size};
}

std::vector<uint8_t> inside_mask(const SortedTileList& list, const Volume& volume, const SegmentationGrid& grid) {
  // φ over the grid (one voxel more each side for the interpolation), then each sample.
  const glm::ivec3 min_voxel(grid.margin - 1);
  const glm::ivec3 dims = grid.dims + 2;
  std::vector<float> phi;
  sample_dense(list, min_voxel, dims, phi);
  std::vector<uint8_t> mask(volume.values.size(), 0);
  for (uint32_t z = 0; z < volume.dims.z; ++z)
    for (uint32_t y = 0; y < volume.dims.y; ++y)
      for (uint32_t x = 0; x < volume.dims.x; ++x) {
        const glm::vec3 p = grid.voxel_of_index(volume, glm::vec3(x, y, z)) - glm::vec3(min_voxel);
        mask[volume.index(x, y, z)] = sample_trilinear(phi.data(), dims, p) < 0.0f ? 1 : 0;
      }
  return mask;
}

}  // namespace meniscus::sim::levelset
