#include "sim/reconstruct/reconstruction.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "engine/profile/cpu_timer.h"
#include "sim/kdtree/knn.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/reinitialise.h"
#include "sim/levelset/seed_spheres.h"
#include "sim/levelset/small_parts.h"
#include "sim/levelset/tile_ages.h"
#include "sim/levelset/upsample.h"
#include "sim/reconstruct/barnes_hut.h"
#include "sim/reconstruct/free_tiles.h"
#include "sim/reconstruct/held_samples.h"
#include "sim/reconstruct/point_octree.h"
#include "sim/reconstruct/potential_cache.h"
#include "sim/reconstruct/sample_fit.h"
#include "sim/reconstruct/sample_weights.h"
#include "sim/reconstruct/surface_distance.h"
#include "sim/reconstruct/surface_error.h"

namespace meniscus::sim::reconstruct {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

// Voxels between the samples' bounding box and the starting box at level d: enough that no
// sample starts inside the band.
constexpr float kBoxClearance = 2.0f;

// Algorithm 3, line 1: the signed distance to a box [lo, hi] (voxels of level d).
std::unique_ptr<levelset::SortedTileList> initial_box(const ReconstructionFrame& frame, float gamma,
                                                      levelset::TilePrecision precision) {
  const int d = frame.coarsest;
  const glm::vec3 lo = frame.voxel_of(frame.box_min, d) - kBoxClearance;
  const glm::vec3 hi = frame.voxel_of(frame.box_max, d) + kBoxClearance;
  auto list = std::make_unique<levelset::SortedTileList>(gamma, 64, precision);
  const auto box = [lo, hi](glm::vec3 p) {
    const glm::vec3 q = glm::max(lo - p, p - hi);
    return glm::length(glm::max(q, glm::vec3(0.0f))) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
  };
  const glm::ivec3 from = glm::max(glm::ivec3(glm::floor(lo)) - 3, glm::ivec3(0));
  levelset::build_from_sdf(*list, box, from, glm::ivec3(glm::ceil(hi)) + 4);
  return list;
}

// A lost part leaves its samples together, as dense as the rest of the scan; outliers come
// alone or in clumps of a few, and a ball around each would keep a bubble the surface is meant
// to pass (Fig. 11). So a sample is put back (and held) only if it has kLostPart - 1 other
// samples within kPartReach times the scan's median kLostPart-th neighbour distance.
constexpr uint32_t kLostPart = 16;
constexpr float kPartReach = 3.0f;

// Whether each sample belongs to a part of the scan rather than to a clump of outliers; all
// false for fewer than kLostPart samples.
std::vector<char> samples_in_parts(std::span<const glm::vec3> points) {
  std::vector<char> in_part(points.size(), 0);
  if (points.size() < kLostPart) return in_part;
  const kdtree::KdTree tree = kdtree::build_kdtree(points, kdtree::KdTreeParams{.k = kLostPart});
  const kdtree::KnnResult near = kdtree::knn_all(tree, kdtree::KnnParams{.k = kLostPart});
  std::vector<float> radii(points.size());
  for (size_t i = 0; i < points.size(); ++i) radii[i] = near.radius(i);
  std::vector<float> sorted = radii;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const float reach = kPartReach * sorted[sorted.size() / 2];
  for (size_t i = 0; i < points.size(); ++i) in_part[i] = radii[i] <= reach;
  return in_part;
}

void check_params(const ReconstructionParams& p, const char* what) {
  if (p.coarsest < 2 || p.finest > kMaxOctreeDepth || p.coarsest > p.finest)
    throw InputError(std::string(what) + ": levels must satisfy 2 <= d <= D <= " + std::to_string(kMaxOctreeDepth) +
                     ", got d = " + std::to_string(p.coarsest) + ", D = " + std::to_string(p.finest));
  if (p.weight_neighbours < 0 || p.weight_neighbours > 256)
    throw InputError(std::string(what) + ": weight neighbours must be in [0, 256], got " + std::to_string(p.weight_neighbours));
  if (!(p.settled_fraction >= 0.0f && p.settled_fraction < 1.0f))
    throw InputError(std::string(what) + ": settled fraction must be in [0, 1), got " +
                     limits::number_text(p.settled_fraction));
  if (p.speck_voxels < 0 || p.speck_voxels > (1 << 20))
    throw InputError(std::string(what) + ": speck voxels must be in [0, 2^20], got " + std::to_string(p.speck_voxels));
  if (!(p.hold_margin >= 0.0f && p.hold_margin <= 1.0f))
    throw InputError(std::string(what) + ": hold margin must be in [0, 1] voxels, got " +
                     limits::number_text(p.hold_margin));
  if (!(p.gap_slowdown >= 0.0f && p.gap_slowdown <= 1e6f))
    throw InputError(std::string(what) + ": gap slowdown must be in [0, 1e6] voxels, got " +
                     limits::number_text(p.gap_slowdown));
  if (p.fit.iterations < 0 || p.fit.iterations > 100)
    throw InputError(std::string(what) + ": fit iterations must be in [0, 100], got " +
                     std::to_string(p.fit.iterations));
  if (!(p.fit.reach >= 0.0f && p.fit.reach < p.gamma))
    throw InputError(std::string(what) + ": fit reach must be in [0, gamma = " + limits::number_text(p.gamma) +
                     ") voxels, got " + limits::number_text(p.fit.reach));
  if (!(p.fit.radius >= 0.5f && p.fit.radius <= 8.0f))
    throw InputError(std::string(what) + ": fit radius must be in [0.5, 8] voxels, got " +
                     limits::number_text(p.fit.radius));
  if (!(p.fit.weight_floor > 0.0f && p.fit.weight_floor <= 1000.0f))
    throw InputError(std::string(what) + ": fit weight floor must be in (0, 1000], got " +
                     limits::number_text(p.fit.weight_floor));
  if (!(p.lost_distance >= 0.0f && p.lost_distance <= 1000.0f))
    throw InputError(std::string(what) + ": lost distance must be in [0, 1000] voxels, got " +
                     limits::number_text(p.lost_distance));
  // A ball around a sample on the cube's low face must stay within the margin below it, which
  // is one tile at level d and so two at the first level that reseeds.
  const float most = 2.0f * float(levelset::kTileSide) - p.gamma - 1.0f;
  if (!(p.reseed_radius > 0.0f && p.reseed_radius <= most))
    throw InputError(std::string(what) + ": reseed radius must be in (0, " + limits::number_text(most) +
                     "] voxels, got " + limits::number_text(p.reseed_radius));
  if (!(p.cavity_radius >= 0.0f && p.cavity_radius <= most))
    throw InputError(std::string(what) + ": cavity radius must be in [0, " + limits::number_text(most) +
                     "] voxels, got " + limits::number_text(p.cavity_radius));
  if (p.finest_repasses < 0 || p.finest_repasses > 8)
    throw InputError(std::string(what) + ": finest repasses must be in [0, 8], got " +
                     std::to_string(p.finest_repasses));
}

// Algorithm 3's evolution at one level: steps until the tiles are settled (or the iteration
// cap), the held samples kept inside after each, then the final reinitialisation. `free`: only
// those tiles evolve (a repass).
void evolve_until_settled(levelset::SortedTileList& list, PotentialCache& cache, const FreeTiles* free,
                          std::span<const glm::vec3> held_voxels, const ReconstructionParams& params, const char* what,
                          LevelReport& report) {
  levelset::EvolutionParams evolution_params;
  evolution_params.scheme = params.scheme;
  evolution_params.velocity = cache.field(list);
  evolution_params.alpha = params.alpha;
  evolution_params.rescaling_speed = params.rescaling_speed;
  evolution_params.cfl = params.cfl;
  if (free) evolution_params.evolves = [free](levelset::TileKey key) { return free->contains(key); };
  levelset::LevelSetEvolution evolution(evolution_params);

  levelset::TileAges ages;
  double t = 0.0;
  ages.update(list, t);
  while (report.iterations < params.max_iterations && list.size()) {
    cache.refresh(list);  // P for the tiles the last management step created
    t += evolution.step(list, float(t));
    hold_inside(list, held_voxels, params.hold_margin, what);
    ages.update(list, t);
    ++report.iterations;
    if (ages.settled(params.converged_age, params.settled_fraction)) {
      report.converged = true;
      break;
    }
  }
  if (params.final_reinit_iterations > 0) {
    // Convergence from both sides steepens φ at the samples; the reinitialisation PDE restores
    // |∇φ| = 1 without moving the zero set, so that |φ| there is a distance (E) and the next
    // level starts from a distance function.
    levelset::ReinitParams reinit;
    reinit.iterations = params.final_reinit_iterations;
    reinit.scheme = params.scheme;
    levelset::Reinitialiser().run(list, reinit);
    hold_inside(list, held_voxels, params.hold_margin, what);  // it can erase a sub-voxel inside
  }
}

}  // namespace

Reconstruction reconstruct_surface(std::span<const glm::vec3> points, const ReconstructionParams& params,
                                   const char* what, const LevelProgress& progress) {
  check_params(params, what);
  Reconstruction out;
  out.frame = fit_reconstruction_frame(points, params.coarsest, params.finest, what);
  const ReconstructionFrame& frame = out.frame;

  // Algorithm 3, lines 2-3: the octree (centroids and counts) in finest-grid units.
  std::vector<glm::vec3> tree_points(points.size());
  for (size_t i = 0; i < points.size(); ++i) tree_points[i] = frame.octree_of_world(glm::dvec3(points[i]));
  std::vector<float> weights;
  if (params.weight_neighbours > 0) {
    SampleWeightStats weight_stats;
    weights = area_weights(points, uint32_t(params.weight_neighbours), &weight_stats);
    out.weights_ms = weight_stats.knn_ms;
  }
  const PointOctree tree(tree_points, params.finest, weights);
  out.octree_ms = tree.build_ms();
  out.octree_nodes = tree.nodes().size();
  out.merged_leaves = tree.merged_leaves();

  const std::vector<char> in_part = params.lost_distance > 0 ? samples_in_parts(points) : std::vector<char>{};
  out.list = initial_box(frame, params.gamma, params.precision);
  std::vector<glm::vec3> sample_voxels(points.size());
  std::vector<char> held(points.size(), 0);  // samples put back at some level, held from then on
  std::vector<glm::vec3> held_voxels;
  std::vector<float> distance;  // each sample's distance to the surface at the end of the last level
  std::vector<char> lost_inside(points.size(), 0);  // ... and whether one lost lies inside it
  // A part thinner than a few voxels pinches off at a coarse level: the fronts from its two
  // sides meet and pass its samples, and the band, left around the body, never reaches them
  // again (V there points at the body's own samples). Each lost sample is put back as a ball
  // (reseed_radius), which the next pass, where the part may be thick enough to hold, shrinks
  // onto the samples, as the box at the first level. A sample lost inside (the bottom of a fold
  // whose mouth closed at a coarser level) gets a cavity instead (cavity_radius), which the
  // next pass convects onto it and its neighbours; where the mouth is wide enough to hold, the
  // cavity joins the outside and the fold opens.
  const auto is_lost = [&](size_t i, float lost_distance) { return distance[i] > lost_distance && in_part[i]; };
  const auto put_back_lost_samples = [&](float lost_distance, LevelReport& report) {
    std::vector<levelset::SeedSphere> balls, cavities;
    std::vector<glm::vec3> centres;
    for (size_t i = 0; i < points.size(); ++i) {
      if (!is_lost(i, lost_distance)) continue;
      centres.push_back(sample_voxels[i]);
      if (lost_inside[i] && params.cavity_radius > 0.0f) {
        cavities.push_back({sample_voxels[i], params.cavity_radius});
      } else {
        balls.push_back({sample_voxels[i], params.reseed_radius});
        held[i] = 1;
      }
    }
    if (!balls.empty()) levelset::add_spheres(*out.list, balls, what);
    if (!cavities.empty()) levelset::remove_spheres(*out.list, cavities, what);
    report.reseeded = balls.size();
    report.cavities = cavities.size();
    return centres;
  };
  const auto any_lost = [&](float lost_distance) {
    for (size_t i = 0; i < points.size(); ++i)
      if (is_lost(i, lost_distance)) return true;
    return false;
  };
  // At the finest level the samples' own noise is the most voxels it will be, and a noisy
  // sample the curvature term let the surface pass is not lost: a repass puts back only samples
  // farther than kNoiseMultiple times the median distance of the scan's samples (a sphere with
  // radial noise of 0.8 voxels came out rougher with α = 1 than with none, a spread of 1.25
  // voxels against 0.90, when the repass held every sample farther than lost_distance).
  constexpr float kNoiseMultiple = 8.0f;
  const auto repass_lost_distance = [&] {
    std::vector<float> part;
    for (size_t i = 0; i < points.size(); ++i)
      if (in_part[i]) part.push_back(distance[i]);
    if (part.empty()) return params.lost_distance;
    std::nth_element(part.begin(), part.begin() + part.size() / 2, part.end());
    return std::max(params.lost_distance, kNoiseMultiple * part[part.size() / 2]);
  };

  for (int level = params.coarsest; level <= params.finest; ++level) {
    auto start = Clock::now();  // a pass's time; the first's includes setting up the level
    for (size_t i = 0; i < points.size(); ++i) sample_voxels[i] = frame.voxel_of(glm::dvec3(points[i]), level);
    PotentialParams potential;
    potential.p = params.p;
    potential.epsilon = params.epsilon * float(1 << (params.finest - level));  // ε in this level's voxels
    potential.theta = params.theta;
    potential.max_depth = level;
    const BarnesHut barnes_hut(tree, potential);
    PotentialCache cache(barnes_hut, frame, level, params.gradient,
                         level == params.finest ? params.gap_slowdown : 0.0f);
    const int passes = level == params.finest && params.lost_distance > 0 ? 1 + params.finest_repasses : 1;
    float repass_lost = params.lost_distance;  // from the pass before (repass_lost_distance)
    for (int pass = 0; pass < passes; ++pass) {
      LevelReport report;
      report.level = level;
      report.pass = pass;
      if (pass == 0 && level > params.coarsest) {
        out.list = std::make_unique<levelset::SortedTileList>(levelset::upsample(*out.list));
        out.list->manage();  // drop the children that hold only ±γ before anything is evaluated on them
      }
      std::optional<FreeTiles> free;
      if (pass > 0) {
        // A repass changes the surface only around the samples put back (free_tiles.h): as far
        // again as a ball reaches, for it to spread onto their neighbours.
        const std::vector<glm::vec3> put_back = put_back_lost_samples(repass_lost, report);
        free.emplace(put_back, 2.0f * std::max(params.reseed_radius, params.cavity_radius));
      } else if (level > params.coarsest && params.lost_distance > 0) {
        put_back_lost_samples(params.lost_distance, report);
      }
      held_voxels.clear();
      for (size_t i = 0; i < points.size(); ++i)
        if (held[i]) held_voxels.push_back(sample_voxels[i]);
      levelset::SortedTileList& list = *out.list;

      const PotentialCacheStats before = cache.stats();
      evolve_until_settled(list, cache, free ? &*free : nullptr, held_voxels, params, what, report);
      // A held sample the grid cannot join to the body is kept as a speck of a few voxels:
      // drawn as a dark grain, not as the part, and no nearer the truth than the sample being lost.
      report.speck_voxels =
          params.speck_voxels > 0 ? levelset::remove_small_parts(list, size_t(params.speck_voxels)) : 0;
      // ... and a cavity that found no fold to open stays a bubble inside the body.
      report.hole_voxels =
          params.speck_voxels > 0 ? levelset::remove_small_holes(list, size_t(params.speck_voxels)) : 0;
      // Whether to repass is decided on the distances before the fit, which only moves the
      // surface within a voxel of the samples it reaches.
      bool again = false;
      if (pass + 1 < passes) {
        distance = surface_distances(list, sample_voxels);
        repass_lost = repass_lost_distance();
        again = any_lost(repass_lost);
      }
      if (level == params.finest && !again && params.fit.iterations > 0) {
        const SampleFitReport fit = fit_to_samples(list, sample_voxels, params.fit);
        report.fitted_samples = fit.fitted;
        report.fit_residual_before = fit.mean_residual_before;
        report.fit_residual_after = fit.mean_residual_after;
      }
      if (!again) distance = surface_distances(list, sample_voxels);
      report.tiles = list.size();
      report.potential_ms = cache.stats().evaluate_ms - before.evaluate_ms;
      report.potential_tiles = cache.stats().tiles_evaluated - before.tiles_evaluated;
      report.mean_abs_phi = mean_abs_phi(list, sample_voxels);
      report.error_percent = 100.0 * report.mean_abs_phi * frame.voxel_size(level) / frame.diagonal();
      for (size_t i = 0; i < points.size(); ++i)
        lost_inside[i] = distance[i] > params.lost_distance && interpolate_phi(list, sample_voxels[i]) < 0.0f;
      const SurfaceAccuracy accuracy = summarise_distances(distance, frame.diagonal() / frame.voxel_size(level));
      report.mean_distance_percent = accuracy.mean_percent;
      report.max_distance_percent = accuracy.max_percent;
      report.seconds = ms_since(start) / 1e3;
      start = Clock::now();
      out.levels.push_back(report);
      if (progress) progress(report);
      if (!again) break;
    }
  }
  return out;
}

}  // namespace meniscus::sim::reconstruct
