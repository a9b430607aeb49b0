#pragma once
// The SPH stage's substep kernels: one thread per particle (or per cell), each the CPU backend's
// loop body from sph_ops.h / sph_neighbours.h, so both backends compute the same thing. Grids
// are sized for the host's bound on the count; each kernel reads the live count from the device.
// Included by sph_cuda_substep.cu only (kernels have one definition).
#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "sim/sph/sph_cuda_device.cuh"
#include "sim/sph/sph_neighbours.h"
#include "sim/sph/sph_ops.h"
#include "sim/sph/sph_setup.h"

namespace meniscus::sim::sph::cuda {

// Counting sort: cell keys and per-cell counts (counts[key + 1], zeroed before).
__global__ void cell_keys(GridShape grid, const uint32_t* rank, const Vec3* x, Live live, uint32_t* key,
                          uint32_t* counts) {
  const uint32_t i = thread_index();
  if (i >= live.get()) return;
  int c[3];
  cell_coords(grid, x[i], c);
  key[i] = rank[linear_cell(grid, c[0], c[1], c[2])];
  atomicAdd(&counts[key[i] + 1], 1u);
}

__global__ void scatter(const uint32_t* key, Live live, uint32_t* cursor, uint32_t* order) {
  const uint32_t i = thread_index();
  if (i < live.get()) order[atomicAdd(&cursor[key[i]], 1u)] = i;
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
__global__ void gather(const T* in, const uint32_t* order, Live live, T* out) {
  const uint32_t i = thread_index();
  if (i < live.get()) out[i] = in[order[i]];
}

// Neighbour counts go to counts[i + 1] so an inclusive scan yields the list offsets; past the
// live count up to the bound they are 0, so the scan's last entries hold the totals.
__global__ void count_neighbours(NeighbourQuery q, Live live, uint32_t* fluid_counts, uint32_t* boundary_counts,
                                 FrameRecord* record) {
  const uint32_t i = thread_index();
  if (i >= live.bound) return;
  uint32_t fluid = 0, solid = 0;
  if (i < live.get()) for_each_neighbour(q, i, [&](uint32_t) { ++fluid; }, [&](uint32_t) { ++solid; });
  fluid_counts[i + 1] = fluid;
  boundary_counts[i + 1] = solid;
  if (fluid > kMaxNeighbours) atomicMax(&record->most_neighbours, fluid);
}

// Offsets past the lists' slots point at their end: a list that would overflow is cut short
// (and the frame reported as failed) instead of writing past the allocation.
__global__ void clamp_lists(uint32_t* fluid_begin, uint32_t* boundary_begin, uint32_t entries, uint32_t slots,
                            FrameRecord* record) {
  const uint32_t i = thread_index();
  if (i >= entries) return;
  if (fluid_begin[i] > slots || boundary_begin[i] > slots) {
    fluid_begin[i] = min(fluid_begin[i], slots);
    boundary_begin[i] = min(boundary_begin[i], slots);
    atomicOr(&record->overflow, 1u);
  }
}

// The lists (in for_each_neighbour's order, as the CPU backend's).
__global__ void fill_neighbours(NeighbourQuery q, Live live, const uint32_t* fluid_begin, uint32_t* fluid,
                                const uint32_t* boundary_begin, uint32_t* boundary) {
  const uint32_t i = thread_index();
  if (i >= live.get()) return;
  const uint32_t f0 = fluid_begin[i], nf = fluid_begin[i + 1] - f0;
  const uint32_t b0 = boundary_begin[i], nb = boundary_begin[i + 1] - b0;
  uint32_t kf = 0, kb = 0;
  for_each_neighbour(
      q, i,
      [&](uint32_t j) {
        if (kf < nf) fluid[f0 + kf++] = j;
      },
      [&](uint32_t k) {
        if (kb < nb) boundary[b0 + kb++] = k;
      });
}

// Each pair's kernel gradient beside the lists, each particle's density and factor.
__global__ void pairs_density_and_factor(Constants c, Arrays a, Live live, Vec3* fluid_gradient,
                                         Vec3* boundary_gradient) {
  const uint32_t i = thread_index();
  if (i < live.get()) compute_pairs_density_and_factor(c, a, i, fluid_gradient, boundary_gradient);
}

// A solve's prediction for every particle, and each block's sum of the errors in double (the
// CPU's mean_error() sums in double too): partial_errors[block], finished by finish_solve.
template <Solve kSolve>
__global__ void predict(Constants c, Arrays a, Live live, float dt, const SolveState* solve, double* partial_errors) {
  if (solve->done) return;  // the same for every thread, so no block stops half-way to the reduce
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  const uint32_t i = thread_index();
  double error = 0.0;
  if (i < live.get()) {
    if constexpr (kSolve == Solve::Density)
      predict_density(c, a, i, dt);
    else
      predict_divergence(c, a, i, dt);
    error = a.error[i];
  }
  const double sum = Reduce(temp).Sum(error);
  if (threadIdx.x == 0) partial_errors[blockIdx.x] = sum;
}

// Reads only positions and kappas: updating v in place is safe, as on the CPU.
__global__ void pressure_update(Arrays a, Live live, float dt, const SolveState* solve) {
  if (solve->done) return;
  const uint32_t i = thread_index();
  if (i < live.get()) a.velocity[i] += pressure_velocity_change(a, i, dt);
}

// One block: the mean error after `iteration` velocity updates, and SphCpu::solve's decision
// whether to go on. `last`: the host enqueued no further iteration (the frame's budget).
__global__ void finish_solve(const double* partial_errors, uint32_t partials, Live live, DeviceState* state,
                             SolveRule rule, int iteration, bool last) {
  if (state->solve.done) return;
  using Reduce = cub::BlockReduce<double, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  double sum = 0.0;
  for (uint32_t b = threadIdx.x; b < partials; b += kBlock) sum += partial_errors[b];
  sum = Reduce(temp).Sum(sum);
  if (threadIdx.x != 0) return;
  SolveState& s = state->solve;
  const uint32_t n = live.get();
  if (n == 0) {  // nothing to solve: as on the CPU, which skips the substep, no statistics
    s.done = 1;
    return;
  }
  const double mean = sum / double(n);
  const bool converged = !(iteration < rule.min_iterations || mean > rule.tolerance);
  if (!converged && iteration < rule.max_iterations && !last) return;
  s.done = 1;
  s.iterations = iteration;
  FrameRecord& r = state->record;
  if (!converged) ++r.unconverged;
  if (rule.solve == Solve::Density) {
    r.density_iterations = iteration;
    r.most_density_iterations = max(r.most_density_iterations, iteration);
    r.density_error = float(mean);
  } else {
    r.divergence_iterations = iteration;
    r.most_divergence_iterations = max(r.most_divergence_iterations, iteration);
  }
}

__global__ void normals(Constants c, Arrays a, Live live) {
  const uint32_t i = thread_index();
  if (i < live.get()) compute_normal(c, a, i);
}

__global__ void non_pressure(Constants c, Arrays a, Live live) {
  const uint32_t i = thread_index();
  if (i < live.get()) a.acceleration[i] = non_pressure_acceleration(c, a, i);
}

__global__ void accelerate(Arrays a, Live live, float dt) {
  const uint32_t i = thread_index();
  if (i < live.get()) a.velocity[i] += dt * a.acceleration[i];
}

struct Walls {
  float min[3], max[3];
};

// As SphCpu::integrate. A non-finite particle is recorded (the lowest id of the first substep
// that had one, with that substep's start time) for the host to report when it reads the frame.
__global__ void integrate(Arrays a, const Vec3* previous_velocity, float* agitation, const uint32_t* id, Live live,
                          float dt, Walls walls, unsigned long long time_bits, FrameRecord* record) {
  using Reduce = cub::BlockReduce<uint32_t, kBlock>;
  __shared__ typename Reduce::TempStorage temp;
  const uint32_t i = thread_index();
  uint32_t touched = 0;
  if (i < live.get()) {
    Vec3 x = a.position[i], v = a.velocity[i];
    x += dt * v;
    agitation[i] = length(v - previous_velocity[i]);
    if (!finite(x) || !finite(v)) {
      const unsigned long long first = atomicCAS(&record->bad_time_bits, kNoTime, time_bits);
      if (first == kNoTime || first == time_bits) atomicMin(&record->bad_id, id[i]);
    } else {
      float* p = &x.x;
      float* u = &v.x;
      for (int axis = 0; axis < 3; ++axis) {
        if (p[axis] < walls.min[axis]) p[axis] = walls.min[axis], u[axis] = fmaxf(u[axis], 0.0f), touched = 1;
        if (p[axis] > walls.max[axis]) p[axis] = walls.max[axis], u[axis] = fminf(u[axis], 0.0f), touched = 1;
      }
      a.position[i] = x;
      a.velocity[i] = v;
    }
  }
  const uint32_t contacts = Reduce(temp).Sum(touched);
  if (threadIdx.x == 0 && contacts) atomicAdd(&record->wall_contacts, (unsigned long long)contacts);
}

}  // namespace meniscus::sim::sph::cuda
