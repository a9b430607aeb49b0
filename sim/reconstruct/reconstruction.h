#pragma once
// Multiresolution surface reconstruction from a point cloud (Jalba et al. 2013, §4, Algorithm 3):
//  1. the level set starts as a box around the samples at level d (2^d voxels across the cube);
//  2-3. the octree of the samples to depth D, with centroids and counts;
//  4. the box is convected at level d with F = 0, U = ∇P/|∇P| (unit steps toward the samples,
//     P by Barnes–Hut through the per-tile P-cache) and curvature weight α, until the tiles are
//     older than the age threshold (sim/levelset/tile_ages.h), all but a thousandth of them;
//  5-7. for r = d+1..D: upsample to level r and evolve again, P now from the tree opened to
//     depth r at the voxels' finest-grid positions 2^(D-r) x.
// The curvature term α κ|∇φ| stiffens the surface: it smooths noise and lets the surface pass
// outliers instead of reaching out to each (Fig. 11). φ is kept near a distance function by the
// rescaling-speed term, so |φ| at a sample is its distance to the surface (the error E).
//
// Two departures from the paper, both measured on Lucy's vertices (tests/sim/reconstruct/
// lucy_tests.cpp; E at level 7 0.63% -> 0.45% for the weights, 0.56% -> 0.47% for the gradient):
//  - samples weigh the area they stand for (sample_weights.h): the paper's scans are sampled
//    evenly, a decimated mesh's vertices are not, and counted samples pull V toward the dense
//    parts and through the sparse ones;
//  - V is the exact gradient of the walk's P (potential_cache.h), not central differences of P
//    one voxel either side, which straddle any part less than about three voxels thick and let
//    the two fronts meet inside it.
// A level set cannot hold a part thinner than a few voxels of the level it is evolved at: at a
// coarse level such a part pinches off (the fronts from its two sides meet and pass its
// samples), and the band, left around the body, would never reach its samples again (Lucy
// from d = 7 lost her wings and the arm holding the torch; the bunny from d = 5 its ears).
// Samples left farther than lost_distance from the surface are therefore put back as balls
// after each upsampling, and the finer level, where the part may be thick enough, convects
// them onto the samples (ReconstructionParams::lost_distance): the bunny's ears and Lucy's
// wings come back. A sample put back is held inside the surface at every finer level
// (held_samples.h), so that the fronts from a thin part's two sides cannot meet across it again;
// where the grid cannot join a held sample to the body it is left as a speck, which is removed
// (speck_voxels). A sample left inside by more than lost_distance (the bottom of a fold whose
// mouth closed at a coarse level, in Lucy's dress) is given a cavity at the next level instead
// (cavity_radius), which opens the fold where its mouth holds. At the finest level the front is
// slowed where the samples' pulls cancel (gap_slowdown), so that it does not run through a
// hole in the scan into the body (the bunny's front paw, whose sole the scan leaves open between
// rows a few millimetres apart), and last the surface is fitted to the samples within a voxel of
// it (sample_fit.h). The finest level has no finer one to put back what it loses: it is evolved
// once more around its lost samples, put back and held (finest_repasses). Levels 5..9 of the
// bunny, mean and worst distance in % of the diagonal: 0.0167 and 1.38 with none of these,
// 0.0137 and 1.29 with holding, 0.0016 and 1.15 with the fit, 0.0009 and 0.64 with the
// slowdown, 0.0009 and 0.47 with the repass; Lucy 7..9: 0.076 and 1.73, 0.057 and 1.64, 0.018
// and 1.52, 0.018 and 1.60, 0.015 and 1.11 with cavities, 0.011 and 0.54 with the repass
// (screened Poisson at depth 9: bunny 0.018 and 0.48, Lucy 0.027 and 1.02).
#include <functional>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

#include "sim/levelset/sorted_tile_list.h"
#include "sim/levelset/upwind.h"
#include "sim/reconstruct/potential_cache.h"
#include "sim/reconstruct/reconstruction_frame.h"
#include "sim/reconstruct/sample_fit.h"

namespace meniscus::sim::reconstruct {

struct ReconstructionParams {
  int coarsest = 5;               // d
  int finest = 8;                 // D
  float alpha = 0.1f;             // curvature weight α (voxels² per unit time, at every level)
  float p = 3.0f;                 // Shepard exponent
  float epsilon = 0.25f;          // softening ε, in voxels of the level being evolved
  float theta = 0.5f;             // Barnes–Hut opening angle
  // Samples weigh the area they stand for, from their k nearest neighbours (sample_weights.h);
  // 0: every sample weighs 1, the paper's P (right for evenly sampled scans only). Few
  // neighbours keep the estimate local: where a sparsely sampled face meets dense samples
  // (Lucy's flat pedestal bottom, 8-12 level-9 voxels between samples, beside its dense rim),
  // 16 neighbours reach the dense ones, and the front settled inside the rim (levels 7..9:
  // mean distance 0.129% of the diagonal, worst 5.04%; with 8: 0.084%, 2.90%; with 4: 0.076%,
  // 1.73%; the bunny's 0.031%, 2.3-2.4% with each).
  int weight_neighbours = 4;
  GradientScheme gradient = GradientScheme::kAnalytic;  // kCentral: the paper's differences of P
  float gamma = 1.5f;             // narrow band half-width, voxels
  levelset::TilePrecision precision = levelset::TilePrecision::kFloat32;  // the tiles' storage
  levelset::Scheme scheme = levelset::Scheme::kUpwind;
  float cfl = 0.5f;
  bool rescaling_speed = true;    // keep |∇φ| near 1 while convecting (see evolution.h)
  int final_reinit_iterations = 10;  // reinitialisation at the end of each level (0: none)
  float converged_age = 5.0f;  // level done when the tiles are older than this (time, see sim/levelset/tile_ages.h)
  // ... all but this fraction of them. The paper waits for every tile (0); on Lucy at level 9 the
  // last 0.1% are the receding rim of a wing, which then eats it for 400 more iterations (twice
  // the level's time, mean and worst distance to the samples both worse).
  float settled_fraction = 0.001f;
  int max_iterations = 3000;      // per level, in case a band never settles
  // Samples farther than this from the surface at the end of a level (voxels of that level;
  // the band reaches γ) are lost: a part pinched off there. After upsampling, each is put back
  // inside the level set as a ball of `reseed_radius` voxels of the new level, which the new
  // level convects onto the samples. 0: no reseeding (a lost part stays lost).
  float lost_distance = 2.0f;
  // Wider than the samples' spacing and a thin part's half-thickness, so that the balls merge
  // into one solid around the part: balls of 2 or 3 voxels leave holes in a sheet (Lucy's
  // wings), and a hole's rim is a thin edge the level set cannot hold, which recedes until it
  // has eaten the sheet. At most 2 tiles - γ - 1 voxels (the margin below the cube).
  float reseed_radius = 5.0f;
  // A sample lost inside the surface (the bottom of a fold whose mouth closed at a coarser level:
  // Lucy's dress) is given an outside ball of this many voxels of the next level instead, a
  // cavity the level convects onto the fold's samples; where the mouth holds at that level the
  // cavity joins the outside and the fold opens. Lucy 7..9: worst distance 1.60% -> 1.11% of
  // the diagonal (2 voxels: 1.60%). At most reseed_radius's bound; 0: lost samples inside get
  // balls, as those outside.
  float cavity_radius = 3.0f;
  // The finest level is evolved again this many times while samples are lost at its end, each
  // put back (as after an upsampling) and held, and only the band around them evolved
  // (free_tiles.h): where the scan samples a face more sparsely than the finest grid holds
  // (Lucy's pedestal bottom, 7-13 level-9 voxels between samples) or leaves a few samples at a
  // thin tip, the finest front carves past them and no finer level would put them back. Lost
  // here means farther than lost_distance and than 8 times the samples' median distance (noise
  // is not lost). Worst distance, % of the diagonal: Lucy 7..9 1.11 -> 0.54, bunny 5..9 0.64 ->
  // 0.47, for a quarter more time. 0: the finest level is evolved once.
  int finest_repasses = 1;
  // A sample put back stays inside the surface at every finer level, φ interpolated at it at most
  // −hold_margin voxels (held_samples.h): enough that it is inside whatever φ's rounding, small
  // against the error of a sample the front reaches from one side (bunny: 0.1 voxels).
  float hold_margin = 0.05f;
  // Inside regions of fewer voxels than this that do not reach the body are removed at the end
  // of each level (levelset/small_parts.h): specks where a held sample sits on a part thinner
  // than the level holds. Their samples count as lost, and the next level puts them back as
  // balls, which may join the body there. 0: specks are kept.
  int speck_voxels = 128;
  // At the finest level, V is scaled by min(1, k |∇P| / P), k = gap_slowdown in finest-grid
  // voxels (potential_cache.h): where the scan has a hole the pulls of its rim cancel, and the
  // unit V left over carried the front through it into the body (the bunny's front paw, whose
  // sole the scan leaves open between rows a few millimetres apart: worst distance 1.15% of the
  // diagonal; 0.65% with k = 4, 0.64% with 16). Only at the finest level: at the coarse ones the
  // front starts far from every sample, where the ratio is small too. 0: unit speed everywhere.
  float gap_slowdown = 16.0f;
  // At the finest level's end, the surface fitted to the samples within fit.reach of it
  // (sample_fit.h); fit.iterations = 0: the surface stays where the front settled.
  SampleFitParams fit;
};

struct LevelReport {
  int level = 0;
  int pass = 0;  // 0, or which repeat of the finest level (finest_repasses)
  int iterations = 0;
  bool converged = false;       // by tile ages, not by the iteration cap
  size_t tiles = 0;             // active tiles at the end of the level
  double seconds = 0;           // the level's wall time: upsampling, evolution, potentials
  double potential_ms = 0;      // of which evaluating P for new tiles
  uint64_t potential_tiles = 0; // tiles whose P was evaluated
  double mean_abs_phi = 0;      // voxels of this level
  double error_percent = 0;     // E: mean |φ| at the samples, % of the bounding-box diagonal
  size_t reseeded = 0;          // lost samples of the level before put back as balls (outliers are not)
  size_t speck_voxels = 0;      // inside voxels of the specks removed at the level's end
  size_t cavities = 0;          // samples lost inside at the level before given a cavity
  size_t hole_voxels = 0;       // outside voxels of the small cavities filled at the level's end
  size_t fitted_samples = 0;    // the finest level only: samples the surface was fitted to
  double fit_residual_before = 0;  // ... their mean |φ| before and after, voxels
  double fit_residual_after = 0;
  // The samples' distances to the surface (surface_distances), % of the diagonal: unlike E
  // these see samples the band lost, such as a limb the level set pinched off.
  double mean_distance_percent = 0;
  double max_distance_percent = 0;
};

struct Reconstruction {
  std::unique_ptr<levelset::SortedTileList> list;  // the level-D band
  ReconstructionFrame frame;
  std::vector<LevelReport> levels;
  double weights_ms = 0;   // kd-tree KNN for the sample weights
  double octree_ms = 0;
  size_t octree_nodes = 0;
  size_t merged_leaves = 0;
};

using LevelProgress = std::function<void(const LevelReport&)>;

// Throws InputError (naming `what`) for an empty or degenerate cloud, a lost distance, reseed
// radius, cavity radius, hold margin, speck size or fit parameter out of range, and for levels outside 2 <= d <= D
// <= 13. `progress` is called as each level ends.
Reconstruction reconstruct_surface(std::span<const glm::vec3> points, const ReconstructionParams& params,
                                   const char* what = "point cloud", const LevelProgress& progress = {});

}  // namespace meniscus::sim::reconstruct
