#pragma once
// The surface area each sample stands for, as its weight in the potential P (barnes_hut.h).
//
// The paper's P = Σ d_i^(1-p) counts samples, which suits its inputs: range scans, sampled
// about evenly over the surface. A cloud whose density varies (the vertices of a decimated
// mesh: thousands in a face, a few across a flat robe) makes V point toward where samples are
// dense rather than toward the nearest surface. Between sparse samples the pull toward their
// sheet vanishes as the front reaches it (the normal component of each sample's gradient is
// proportional to the front's distance from the sheet), while dense parts elsewhere keep
// pulling with their full count: the front slips through the sparse walls and the surface
// collapses onto the dense regions. Weighting each sample by its share of the area,
// a_i ∝ r_k(i)² (the distance to its k-th nearest neighbour squared, the inverse of the density
// k / r_k² of Zhou et al. 2008, Appendix B), makes P a discretised surface integral whatever the
// sampling, and an even sampling keeps weights near 1, i.e. the paper's P.
//
// Weights are relative to the median sample's, and clamped to [1/kMaxWeightRatio,
// kMaxWeightRatio]: an outlier's neighbours are far, and unclamped it would weigh as much as the
// whole area around it; a run of duplicates has r_k = 0.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace meniscus::sim::reconstruct {

inline constexpr float kMaxWeightRatio = 64.0f;

struct SampleWeightStats {
  float median_radius = 0;   // r_k of the median sample, the input's units
  float clamped_high = 0;    // fraction of samples at the upper clamp
  float clamped_low = 0;     // and at the lower one
  double knn_ms = 0;         // kd-tree build and all-points KNN
};

// One weight per point (median 1). `k` neighbours, the point itself not counted; with at most k
// distinct positions every weight is 1.
std::vector<float> area_weights(std::span<const glm::vec3> points, uint32_t k, SampleWeightStats* stats = nullptr);

}  // namespace meniscus::sim::reconstruct
