#pragma once
// A narrow-band level set rebuilt from particles every frame (SPH particles → sorted tile list),
// on the CPU here and on the GPU-STL in particle_level_set_gpu.h, with the same result.
//
// The surface is Zhu & Bridson's (2005, "Animating sand as a fluid", §6.1):
//   φ0(x) = |x − x̄(x)| − r̄,  x̄ = Σ k_i x_i / Σ k_i,  k_i = max(0, (1 − |x − x_i|²/R²)³).
// Chosen over Yu & Turk (2013) for a surface rebuilt every frame on ~10^5–10^6 particles: it
// costs one kernel sum per voxel and nothing per particle, where Yu & Turk first smooth every
// centre and take each particle's weighted covariance and its eigen-decomposition (a second
// neighbour pass and an iterative 3x3 solve per particle, per frame); and its field is already a
// distance outside the fluid, where Yu & Turk's is a density whose iso-value is not. What it
// gives up — Yu & Turk's flat sheets and thin splashes (isotropic kernels make them blobby), and
// a surface that sits a little inside flat faces (-0.06 spacing with R = 2 spacings) — the
// optional curvature-flow steps below partly recover; its φ0 ≈ −r̄ throughout the inside is what
// the redistancing below fixes.
//
// A build, on both backends (the numbered steps are the kernels of particle_level_set_cuda.cu):
//  1. bin the particles (voxel units) into a dense grid of 4^3-voxel cells, stable by index;
//  2. mark the tiles within R + 1 voxels of a cell's particles (φ0 is evaluated there) and
//     within R + 1 + (γ + 1) (a band value can land there: the interface lies within R + 1 of a
//     particle, the band within γ + 1 of it); the marked tiles become the list, ids in key order;
//  3. φ0 at every voxel of the evaluated tiles; R − r̄ elsewhere (no particle within R);
//  4. voxels with a 6-neighbour across φ0's sign change get the distance to the plane through
//     the crossings; Jacobi sweeps of the Godunov eikonal update carry it γ + 1 voxels out on
//     both sides, in the tiles near such voxels only; values are clamped to ±γ with φ0's sign;
//  5. manage() drops every tile that neither holds a value inside ±γ nor is asked for by a
//     neighbour — the fluid's interior and the far outside — and creates the few asked-for
//     tiles beyond the marked ones, which lie outside the fluid (+γ);
//  6. optionally, N steps of mean-curvature flow (LevelSetEvolution, α).
// Particles outside the voxel grid are dropped (and counted): give the grid a margin of
// particle_grid_margin() voxels around the particles' domain (fit_particle_grid does).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "sim/common/particle.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/gpu_stl_params.h"
#include "sim/levelset/particle_level_set_math.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct ParticleLevelSetParams {
  float voxel_size = 0.0f;        // metres
  glm::vec3 origin{0.0f};         // metres: voxel v sits at origin + v * voxel_size
  glm::ivec3 voxels{0};           // the grid's extent in voxels (from voxel 0)
  float particle_radius = 0.0f;   // metres; the particle spacing is twice this
  float kernel_radius = 2.0f;     // R, in particle spacings (>= 1)
  float gamma = 3.0f;             // the band half-width in voxels: the list's γ
  int smoothing_steps = 0;        // mean-curvature flow steps after each build
  // α of φ_t = α κ |∇φ|; a step lasts one time unit, or the CFL limit 0.5 / (6α) when shorter,
  // so up to α = 1/12 a step moves the surface by α κ voxels.
  float smoothing_alpha = 1.0f / 12.0f;
};

struct ParticleLevelSetStats {
  uint32_t particles = 0;  // inside the voxel grid
  uint32_t dropped = 0;    // outside it (or not finite)
  uint32_t marked_tiles = 0;  // step 2: the list before management (its pool capacity)
  TileStatus management;      // step 5: kept + added = the band's tiles; removed = the rest
};

// Checks the parameters and derives the kernels' constants. Throws InputError naming
// `particle level set: <field>` for a value out of range or a grid beyond the tile keys or
// kMaxParticleGridTiles tiles.
particle_grid::GridShape particle_grid_shape(const ParticleLevelSetParams& params);

// The dense bookkeeping costs up to 21 bytes a tile over the whole grid (both backends).
inline constexpr uint64_t kMaxParticleGridTiles = uint64_t(1) << 26;

// The smoothing steps as the evolution's parameters (both backends run these).
GpuEvolutionParams smoothing_evolution(const ParticleLevelSetParams& params);

// Voxels the grid should extend past every particle so that no band value is cut off.
int particle_grid_margin(const ParticleLevelSetParams& params);

// Sets origin and voxels so the grid covers [lo, hi] (metres) plus particle_grid_margin().
void fit_particle_grid(ParticleLevelSetParams& params, glm::vec3 lo, glm::vec3 hi);

// The CPU backend: TBB over tiles (and over particles for the binning). Keeps its scratch from
// build to build.
class ParticleLevelSetBuilder {
 public:
  explicit ParticleLevelSetBuilder(const ParticleLevelSetParams& params);

  // Replaces `list` by the level set of `particles` (positions in metres; φ in voxels,
  // negative inside).
  ParticleLevelSetStats build(SortedTileList& list, std::span<const Particle> particles);

  const ParticleLevelSetParams& params() const { return params_; }
  const particle_grid::GridShape& shape() const { return shape_; }

 private:
  void bin(std::span<const Particle> particles, ParticleLevelSetStats& stats);
  void mark();
  void evaluate(SortedTileList& list);
  void redistance(SortedTileList& list);
  uint32_t slot_at(int x, int y, int z) const;
  void face_neighbours(const SortedTileList& list, size_t i, bool near_only, uint32_t out[6]) const;

  ParticleLevelSetParams params_;
  particle_grid::GridShape shape_;
  LevelSetEvolution smoothing_;

  // Per particle: its voxel-space position and cell; then the particles in cell order.
  std::vector<glm::vec3> voxel_position_;
  std::vector<uint32_t> cell_;
  std::vector<uint32_t> order_;
  std::vector<glm::vec3> sorted_;
  // Per dense tile: the particles' cell offsets (tiles + 1), the step-2 marks, the list slot.
  std::vector<uint32_t> cell_begin_, cursor_;
  std::vector<uint8_t> member_, evaluated_;
  std::vector<uint32_t> slot_;
  std::vector<uint32_t> occupied_;  // cells holding particles, in dense order
  // Per list position: φ0 (beyond the band, so not in the tiles, whose storage may be 16-bit;
  // then the sweeps' second buffer), the seeds (φ0's sign with the fixed distances), the
  // sweeps' buffer, whether the tile holds an interface voxel, whether it is swept.
  std::vector<float> phi0_, seed_, sweep_;
  std::vector<uint8_t> interface_, near_;
};

}  // namespace meniscus::sim::levelset
