#pragma once
// The Shepard inverse-distance velocity field (Jalba et al. 2013, Eq. 2–3):
//   V(x) = Σ_i w_i(x) f_i(x),  w_i = d_i^-p / Σ_j d_j^-p,  f_i = (x - x_i) / d_i,
//   d_i = sqrt(|x - x_i|² + ε²),
// written here with f_i = (x_i - x) / d_i, toward the samples, the way the surface is convected
// (the paper's f̂_i points away and its V = c (-∇P/|∇P|), 0 < c < 1, §4.1): so V = c ∇P/|∇P|
// with P = Σ d_i^(1-p), which grows toward the samples.
// The reconstruction never sums Eq. 2 directly: it takes unit steps along ∇P/|∇P|, with P and ∇P
// from the Barnes–Hut tree (or ∇P by central differences, potential_cache.h). The direct sum is
// here for the tests that check that they agree in direction.
#include <span>

#include <glm/vec3.hpp>

namespace meniscus::sim::reconstruct {

// Eq. 2–3 summed over every sample (O(N) per point).
glm::vec3 shepard_velocity(std::span<const glm::vec3> samples, glm::vec3 x, float p, float epsilon);

// The unit velocity ∇P/|∇P| (toward the samples) from P at x ± e_a along each axis, `spacing` apart (central
// differences; with one side missing the caller passes the centre value twice and spacing 1).
// Zero where the gradient vanishes (x on a sample, or the centre of a symmetric configuration).
glm::vec3 toward_samples(const float minus[3], const float plus[3], const float spacing[3]);

}  // namespace meniscus::sim::reconstruct
