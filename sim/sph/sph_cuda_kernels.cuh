#pragma once
// The SPH stage's CUDA kernels: one thread per particle (or per cell), each the CPU backend's
// loop body from sph_ops.h / sph_neighbours.h, so both backends compute the same thing.
#include <cstdint>

#include "sim/common/particle.h"
#include "sim/sph/sph_neighbours.h"
#include "sim/sph/sph_ops.h"

namespace meniscus::sim::sph::cuda {

constexpr int kBlock = 256;

inline unsigned blocks(uint32_t n) { return (n + kBlock - 1) / kBlock; }

__device__ inline uint32_t thread_index() { return blockIdx.x * blockDim.x + threadIdx.x; }

// Counting sort: cell keys and per-cell counts (counts[key + 1], zeroed before).
__global__ void cell_keys(GridShape grid, const uint32_t* rank, const Vec3* x, uint32_t n, uint32_t* key,
                          uint32_t* counts) {
  const uint32_t i = thread_index();
  if (i >= n) return;
  int c[3];
  cell_coords(grid, x[i], c);
  key[i] = rank[linear_cell(grid, c[0], c[1], c[2])];
  atomicAdd(&counts[key[i] + 1], 1u);
}

__global__ void scatter(const uint32_t* key, uint32_t n, uint32_t* cursor, uint32_t* order) {
  const uint32_t i = thread_index();
  if (i < n) order[atomicAdd(&cursor[key[i]], 1u)] = i;
}

// The atomics' order is the schedule's; sorting each cell's few indices makes it the input's.
__global__ void order_cells(const uint32_t* cell_begin, uint32_t cells, uint32_t* order) {
  const uint32_t c = thread_index();
  if (c >= cells) return;
  const uint32_t first = cell_begin[c], end = cell_begin[c + 1];
  for (uint32_t k = first + 1; k < end; ++k) {
    const uint32_t value = order[k];
    uint32_t j = k;
    for (; j > first && order[j - 1] > value; --j) order[j] = order[j - 1];
    order[j] = value;
  }
}

template <class T>
__global__ void gather(const T* in, const uint32_t* order, uint32_t n, T* out) {
  const uint32_t i = thread_index();
  if (i < n) out[i] = in[order[i]];
}

// Neighbour counts go to counts[i + 1] so an inclusive scan yields the list offsets.
__global__ void count_neighbours(NeighbourQuery q, uint32_t n, uint32_t* fluid_counts, uint32_t* boundary_counts,
                                 uint32_t* most) {
  const uint32_t i = thread_index();
  if (i >= n) return;
  uint32_t fluid = 0, solid = 0;
  for_each_neighbour(q, i, [&](uint32_t) { ++fluid; }, [&](uint32_t) { ++solid; });
  fluid_counts[i + 1] = fluid;
  boundary_counts[i + 1] = solid;
  atomicMax(most, fluid);
}

// The lists and, beside them, each pair's volume-weighted kernel gradient (see sph_ops.h).
__global__ void fill_neighbours(NeighbourQuery q, Constants c, const float* boundary_volume, uint32_t n,
                                const uint32_t* fluid_begin, uint32_t* fluid, Vec3* fluid_gradient,
                                const uint32_t* boundary_begin, uint32_t* boundary, Vec3* boundary_gradient) {
  const uint32_t i = thread_index();
  if (i >= n) return;
  uint32_t* f = fluid + fluid_begin[i];
  uint32_t* b = boundary + boundary_begin[i];
  for_each_neighbour(q, i, [&](uint32_t j) { *f++ = j; }, [&](uint32_t k) { *b++ = k; });
  pair_gradients(c, q.fluid[i], q.fluid, nullptr, c.volume, fluid + fluid_begin[i], fluid_begin[i + 1] - fluid_begin[i],
                 fluid_gradient + fluid_begin[i]);
  pair_gradients(c, q.fluid[i], q.boundary, boundary_volume, 0.0f, boundary + boundary_begin[i],
                 boundary_begin[i + 1] - boundary_begin[i], boundary_gradient + boundary_begin[i]);
}

__global__ void density_and_factor(Constants c, Arrays a) {
  const uint32_t i = thread_index();
  if (i < a.count) compute_density_and_factor(c, a, i);
}

__global__ void predict_density_kernel(Constants c, Arrays a, float dt) {
  const uint32_t i = thread_index();
  if (i < a.count) predict_density(c, a, i, dt);
}

__global__ void predict_divergence_kernel(Constants c, Arrays a, float dt) {
  const uint32_t i = thread_index();
  if (i < a.count) predict_divergence(c, a, i, dt);
}

// Reads only positions and kappas: updating v in place is safe, as on the CPU.
__global__ void pressure_update(Arrays a, float dt) {
  const uint32_t i = thread_index();
  if (i < a.count) a.velocity[i] += pressure_velocity_change(a, i, dt);
}

__global__ void normals(Constants c, Arrays a) {
  const uint32_t i = thread_index();
  if (i < a.count) compute_normal(c, a, i);
}

__global__ void non_pressure(Constants c, Arrays a) {
  const uint32_t i = thread_index();
  if (i < a.count) a.acceleration[i] = non_pressure_acceleration(c, a, i);
}

__global__ void accelerate(Arrays a, float dt) {
  const uint32_t i = thread_index();
  if (i < a.count) a.velocity[i] += dt * a.acceleration[i];
}

__global__ void speeds(const Vec3* v, uint32_t n, float* out) {
  const uint32_t i = thread_index();
  if (i < n) out[i] = length(v[i]);
}

struct Walls {
  float min[3], max[3];
};

__global__ void integrate(Arrays a, const Vec3* previous_velocity, float* agitation, const uint32_t* id, float dt,
                          Walls walls, unsigned long long* contacts, uint32_t* bad) {
  const uint32_t i = thread_index();
  if (i >= a.count) return;
  Vec3 x = a.position[i], v = a.velocity[i];
  x += dt * v;
  agitation[i] = length(v - previous_velocity[i]);
  if (!finite(x) || !finite(v)) {
    atomicMin(bad, id[i]);
    return;
  }
  float* p = &x.x;
  float* u = &v.x;
  bool touched = false;
  for (int axis = 0; axis < 3; ++axis) {
    if (p[axis] < walls.min[axis]) p[axis] = walls.min[axis], u[axis] = fmaxf(u[axis], 0.0f), touched = true;
    if (p[axis] > walls.max[axis]) p[axis] = walls.max[axis], u[axis] = fminf(u[axis], 0.0f), touched = true;
  }
  if (touched) atomicAdd(contacts, 1ull);
  a.position[i] = x;
  a.velocity[i] = v;
}

// 1 where an emitter may place candidate k (no fluid within the clearance), else 0.
__global__ void clear_of_fluid(NeighbourQuery q, const Vec3* candidates, uint32_t n, float min_distance_squared,
                               uint8_t* clear) {
  const uint32_t k = thread_index();
  if (k < n) clear[k] = occupied(q, candidates[k], min_distance_squared) ? 0 : 1;
}

__global__ void publish(const Vec3* x, const Vec3* v, const float* density, const float* agitation,
                        const uint32_t* id, uint32_t n, float rest_density, Particle* out) {
  const uint32_t i = thread_index();
  if (i >= n) return;
  out[id[i]] = Particle{{x[i].x, x[i].y, x[i].z}, density[i] * rest_density, {v[i].x, v[i].y, v[i].z}, agitation[i]};
}

}  // namespace meniscus::sim::sph::cuda
