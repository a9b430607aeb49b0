#pragma once
// The potential P(x) = Σ_i a_i d_i(x)^(1-p), d_i = sqrt(|x - x_i|² + ε²) (Jalba et al. 2013, §4.1,
// where every weight a_i is 1; see sample_weights.h for why ours may not be),
// whose normalised gradient is the direction of the Shepard field V (Eq. 2–3), by the
// Barnes–Hut tree algorithm over a PointOctree: a node far enough from x contributes once, as
// its total weight at its centroid; a near one is opened. The walk is the stackless traversal of
// Algorithm 4: down to first children, across to the next sibling, up through parents when a
// node was the last of its siblings, done on returning to the root.
//
// Up to 64 nearby points (a tile's voxels) walk together: each node is read once for the group
// and tested for each point that reached it, so every point visits its own nodes in its own
// order and gets, bit for bit, what it gets walking alone. The points of a tile mostly agree on
// which nodes to open, so the group pays about one point's node reads instead of 64 (the octree
// does not fit in cache): the P-cache's potentials in under half the time (Lucy, level 9: 9.8 s
// against 4.3 s).
//
// Multiresolution (§4.1, last paragraph): at level r the walk opens no node of depth r or more,
// so level r sees the samples merged into level-r cells, one voxel each.
#include <cstdint>
#include <span>

#include <glm/vec3.hpp>
#include <glm/ext/vector_double3.hpp>

#include "sim/reconstruct/point_octree.h"

namespace meniscus::sim::reconstruct {

struct PotentialParams {
  float p = 3.0f;          // Shepard exponent (the paper uses 3 throughout)
  float epsilon = 0.5f;    // softening ε, in finest-grid units
  float theta = 0.5f;      // opening angle: a node of side s is far when s < θ |x - centroid|
  int max_depth = 64;      // deepest node opened (the level r); capped by the tree's depth
};

struct PotentialCounters {
  uint64_t nodes_visited = 0;  // add_pot calls
};

// P at a point and its exact gradient there, both from the same walk (each far node's
// monopole: its weight at its centroid).
struct PotentialSample {
  double value = 0.0;
  glm::dvec3 gradient{0.0};  // ∇P, pointing toward the samples
};

class BarnesHut {
 public:
  BarnesHut(const PointOctree& tree, PotentialParams params);

  // P at x (finest-grid units). `counters`, when given, is added to (not thread-safe per object).
  float potential(glm::vec3 x, PotentialCounters* counters = nullptr) const;
  // P and ∇P at x (∇P in per finest-grid unit).
  PotentialSample sample(glm::vec3 x, PotentialCounters* counters = nullptr) const;

  // The same at up to kGroupSize points in one walk (see above). std::invalid_argument for more
  // points or results that do not match them.
  static constexpr int kGroupSize = 64;
  void sample_group(std::span<const glm::vec3> x, std::span<PotentialSample> out,
                    PotentialCounters* counters = nullptr) const;
  void potential_group(std::span<const glm::vec3> x, std::span<float> out, PotentialCounters* counters = nullptr) const;

  // The same sum over every sample without the tree, for tests: `points` in finest-grid units,
  // `weights` as given to the tree (empty: all 1).
  static double direct_potential(std::span<const glm::vec3> points, glm::vec3 x, const PotentialParams& params,
                                 std::span<const float> weights = {});

  const PotentialParams& params() const { return params_; }

 private:
  // A walking group's points and sums, lane by lane (barnes_hut.cpp).
  struct Group;

  // Algorithm 4's add_pot for each point i whose bit is set in `mask`: accumulates node n into
  // its sums when it is far from the point, a leaf or at the depth limit; returns the mask of
  // the points that must open it instead.
  template <bool kGradient>
  uint64_t add_pot(uint32_t n, Group& group, uint64_t mask) const;
  // d^(1-p) from d² = |x - c|² + ε².
  double kernel(double d2) const;
  // The stackless walk of `count` points (0 visits nothing); returns the nodes visited, summed
  // over the points.
  template <bool kGradient>
  uint64_t walk(Group& group, int count) const;
  // The group of the points x (at most kGroupSize), its sums zero.
  static Group group_of(std::span<const glm::vec3> x);
  // std::invalid_argument unless 0 <= points <= kGroupSize and results == points.
  static void check_group(size_t points, size_t results);

  const PointOctree& tree_;
  PotentialParams params_;
  float epsilon2_;
  float theta2_;
  int depth_limit_;
};

}  // namespace meniscus::sim::reconstruct
