#pragma once
// The per-particle arithmetic of DFSPH (Bender & Koschier, "Divergence-free SPH for
// incompressible and highly viscous fluids", TVCG 2017), shared verbatim by the CPU backend
// (TBB loops) and the CUDA backend (one thread per particle).
//
// Densities are kept as ratios to the rest density and masses as volumes V = m / rho0, so the
// solver's numbers are O(1) whatever the units. Both solvers find Lagrange multipliers kappa_i
// with the Jacobi-style update
//     v_i -= dt * sum_j V_j (kappa_i + kappa_j) gradW_ij  (+ dt * kappa_i * sum_b Psi_b gradW_ib)
// where kappa_i = (density error) * factor_i / dt^k; factor_i (DFSPH's alpha_i) makes the update
// remove particle i's own error in one step if its neighbours stood still.
// Solids are Akinci et al. (2012) boundary particles: a volume Psi_b each, pressure mirrored.
#include <cstdint>

#include "sim/sph/sph_kernel.h"

namespace meniscus::sim::sph {

struct Constants {
  Kernel kernel;
  float volume;  // of one fluid particle (m^3): rest density exactly on the filling lattice
  float rest_density;
  float viscosity;           // fluid-fluid, m^2/s
  float boundary_viscosity;  // fluid-solid, m^2/s
  float surface_tension;
  Vec3 gravity;
};

// Raw views of the solver's arrays (host or device memory), particles in sorted order.
struct Arrays {
  uint32_t count;
  Vec3* position;
  Vec3* velocity;
  Vec3* acceleration;
  Vec3* normal;        // Akinci's surface normal, only with surface tension
  float* density;      // rho / rho0
  float* factor;       // DFSPH alpha_i, in volume units
  float* kappa;        // the current solve's multiplier
  float* error;        // the current solve's per-particle error (predicted density or divergence)
  const uint32_t* neighbour_begin;  // count + 1 offsets into neighbours
  const uint32_t* neighbours;
  const Vec3* neighbour_gradient;   // V_j gradW(x_i - x_j), beside neighbours
  const uint32_t* boundary_begin;   // count + 1 offsets into boundary_neighbours
  const uint32_t* boundary_neighbours;
  const Vec3* boundary_gradient;    // Psi_b gradW(x_i - x_b), beside boundary_neighbours
  const Vec3* boundary_position;
  const float* boundary_volume;  // Psi_b as a volume
};

// Below this many neighbours a particle is at the free surface, where the divergence solver
// would pull it back into the fluid (SPlisHSPlasH uses the same threshold in 3D).
constexpr uint32_t kSurfaceNeighbours = 20;

// DFSPH's factor alpha_i from sum_j |V_j gradW_ij|^2 + |sum_j V_j gradW_ij|^2. A lone particle
// has no gradient: no multiplier can change its density.
MENISCUS_HD inline float dfsph_factor(const Constants& c, float sum_squares) {
  return sum_squares > 1e-6f / (c.kernel.h * c.kernel.h) ? 1.0f / sum_squares : 0.0f;
}

// Positions only change at the end of a step, so each pair's volume-weighted kernel gradient
// is stored once, beside the lists (fluid_gradient and boundary_gradient are the arrays that
// a.neighbour_gradient and a.boundary_gradient read), for the solver's many loops to read
// instead of recomputing a square root and a division per pair per loop. The same walk sums
// the density and DFSPH's factor, each pair's distance serving both its kernel value and its
// gradient.
MENISCUS_HD inline void compute_pairs_density_and_factor(const Constants& c, const Arrays& a, uint32_t i,
                                                         Vec3* fluid_gradient, Vec3* boundary_gradient) {
  const Vec3 xi = a.position[i];
  float rho = c.volume * c.kernel.w_zero;
  Vec3 grad_i{0, 0, 0};
  float sum_squares = 0.0f;
  float w;
  for (uint32_t n = a.neighbour_begin[i]; n < a.neighbour_begin[i + 1]; ++n) {
    const Vec3 g = c.volume * kernel_w_and_grad(c.kernel, xi - a.position[a.neighbours[n]], w);
    fluid_gradient[n] = g;
    rho += c.volume * w;
    grad_i += g;
    sum_squares += dot(g, g);
  }
  for (uint32_t n = a.boundary_begin[i]; n < a.boundary_begin[i + 1]; ++n) {
    const uint32_t b = a.boundary_neighbours[n];
    const float volume = a.boundary_volume[b];
    const Vec3 g = volume * kernel_w_and_grad(c.kernel, xi - a.boundary_position[b], w);
    boundary_gradient[n] = g;
    rho += volume * w;
    grad_i += g;
  }
  sum_squares += dot(grad_i, grad_i);
  a.density[i] = rho;
  a.factor[i] = dfsph_factor(c, sum_squares);
}

// The rate of change of density ratio, -div(v) * rho/rho0, from the current velocities.
MENISCUS_HD inline float density_rate(const Arrays& a, uint32_t i) {
  const Vec3 vi = a.velocity[i];
  float rate = 0.0f;
  for (uint32_t n = a.neighbour_begin[i]; n < a.neighbour_begin[i + 1]; ++n)
    rate += dot(vi - a.velocity[a.neighbours[n]], a.neighbour_gradient[n]);
  for (uint32_t n = a.boundary_begin[i]; n < a.boundary_begin[i + 1]; ++n) rate += dot(vi, a.boundary_gradient[n]);
  return rate;
}

// Constant-density solver: predicted density ratio after dt, only compression counts.
MENISCUS_HD inline void predict_density(const Constants& c, const Arrays& a, uint32_t i, float dt) {
  (void)c;
  const float predicted = a.density[i] + dt * density_rate(a, i);
  const float error = predicted > 1.0f ? predicted - 1.0f : 0.0f;
  a.error[i] = error;
  a.kappa[i] = error * a.factor[i] / (dt * dt);
}

// Divergence-free solver: only compressing motion counts, and not at the free surface.
MENISCUS_HD inline void predict_divergence(const Constants& c, const Arrays& a, uint32_t i, float dt) {
  (void)c;
  float rate = density_rate(a, i);
  const uint32_t neighbours = a.neighbour_begin[i + 1] - a.neighbour_begin[i] + a.boundary_begin[i + 1] - a.boundary_begin[i];
  if (rate < 0.0f || neighbours < kSurfaceNeighbours) rate = 0.0f;
  a.error[i] = rate * dt;
  a.kappa[i] = rate * a.factor[i] / dt;
}

// The velocity change of one solver iteration (reads kappa of i and its neighbours).
MENISCUS_HD inline Vec3 pressure_velocity_change(const Arrays& a, uint32_t i, float dt) {
  const float ki = a.kappa[i];
  Vec3 sum{0, 0, 0};
  for (uint32_t n = a.neighbour_begin[i]; n < a.neighbour_begin[i + 1]; ++n)
    sum += (ki + a.kappa[a.neighbours[n]]) * a.neighbour_gradient[n];
  if (ki != 0.0f)
    for (uint32_t n = a.boundary_begin[i]; n < a.boundary_begin[i + 1]; ++n) sum += ki * a.boundary_gradient[n];
  return -dt * sum;
}

// Akinci et al. (2013) surface normal n_i = h * sum_j V_j / rho_j gradW_ij.
MENISCUS_HD inline void compute_normal(const Constants& c, const Arrays& a, uint32_t i) {
  Vec3 n{0, 0, 0};
  for (uint32_t k = a.neighbour_begin[i]; k < a.neighbour_begin[i + 1]; ++k)
    n += (1.0f / a.density[a.neighbours[k]]) * a.neighbour_gradient[k];
  a.normal[i] = c.kernel.h * n;
}

// Gravity, viscosity against fluid and solids, and surface tension.
MENISCUS_HD inline Vec3 non_pressure_acceleration(const Constants& c, const Arrays& a, uint32_t i) {
  const Vec3 xi = a.position[i];
  const Vec3 vi = a.velocity[i];
  const float h2 = c.kernel.h * c.kernel.h;
  Vec3 acc = c.gravity;
  // Monaghan's SPH Laplacian of v: 2(d + 2) nu sum_j V_j/rho_j (v_ij . x_ij)/(|x_ij|^2 + 0.01 h^2) gradW.
  const float fluid_term = 10.0f * c.viscosity;
  const bool tension = c.surface_tension > 0.0f;
  for (uint32_t n = a.neighbour_begin[i]; n < a.neighbour_begin[i + 1]; ++n) {
    const uint32_t j = a.neighbours[n];
    const Vec3 d = xi - a.position[j];
    const float r2 = dot(d, d);
    if (fluid_term > 0.0f) {
      const float s = fluid_term * dot(vi - a.velocity[j], d) / (a.density[j] * (r2 + 0.01f * h2));
      acc += s * a.neighbour_gradient[n];
    }
    if (tension) {
      // Cohesion pulls neighbours to a preferred distance, the curvature term flattens the
      // surface; K_ij corrects for particle deficiency at the surface.
      const float k_ij = 2.0f / (a.density[i] + a.density[j]);
      const float r = sqrtf(r2);
      if (r > 1e-9f) acc -= (c.surface_tension * k_ij * c.rest_density * c.volume * cohesion(c.kernel, r) / r) * d;
      acc -= (c.surface_tension * k_ij) * (a.normal[i] - a.normal[j]);
    }
  }
  const float boundary_term = 10.0f * c.boundary_viscosity;
  if (boundary_term > 0.0f) {
    for (uint32_t n = a.boundary_begin[i]; n < a.boundary_begin[i + 1]; ++n) {
      const uint32_t b = a.boundary_neighbours[n];
      const Vec3 d = xi - a.boundary_position[b];
      const float s = boundary_term * dot(vi, d) / (a.density[i] * (dot(d, d) + 0.01f * h2));
      acc += s * a.boundary_gradient[n];
    }
  }
  return acc;
}

// NaN fails every comparison, infinity the bound: one test for both, on both backends.
MENISCUS_HD inline bool finite(Vec3 v) {
  return fabsf(v.x) <= 3.4e38f && fabsf(v.y) <= 3.4e38f && fabsf(v.z) <= 3.4e38f;
}

}  // namespace meniscus::sim::sph
