// The CUDA SPH stage's substep: Z-order counting sort, neighbour lists, DFSPH's two solves,
// integration; as SphCpu::substep, with every count and decision kept on the device.
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>

#include "sim/common/cuda_launch.cuh"
#include "sim/sph/sph_cuda_kernels.cuh"
#include "sim/sph/sph_cuda_stage.cuh"

namespace meniscus::sim {

namespace k = sph::cuda;

void SphCuda::substep(float dt, const sph::FramePlan& plan) {
  // The host knows for certain that no particle is alive only when its bound is 0 (the device
  // may have none left while the bound is above: then every kernel finds nothing to do).
  const bool body = bound_ > 0;
  if (body) {
    sort_particles();
    find_neighbours();
    const sph::Constants& c = setup_.constants;
    const sph::Arrays a = arrays();
    const k::Live n = live();
    const unsigned grid = k::blocks(bound_);
    launch<k::pairs_density_and_factor>({grid, k::kBlock, 0, stream_}, c, a, n, neighbour_gradient_.get(),
                                        boundary_gradient_.get());
    SPH_CUDA_CHECK(cudaMemcpyAsync(previous_velocity_.get(), velocity_.get(), sizeof(Vec3) * bound_,
                                   cudaMemcpyDeviceToDevice, stream_));
    if (params_.divergence_solve) solve<k::Solve::Divergence>(plan.divergence_budget, dt);
    if (c.surface_tension > 0.0f) launch<k::normals>({grid, k::kBlock, 0, stream_}, c, a, n);
    launch<k::non_pressure>({grid, k::kBlock, 0, stream_}, c, a, n);
    launch<k::accelerate>({grid, k::kBlock, 0, stream_}, a, n, dt);
    solve<k::Solve::Density>(plan.density_budget, dt);
    integrate(dt);
    SPH_CUDA_CHECK(cudaGetLastError());
  }
  time_ += dt;
  // Emission first, as on the CPU: this substep's grid still indexes the particles. The sinks
  // then see the newborn too.
  emit(dt, body);
  if (bound_ > 0 && !params_.sinks.empty()) remove_in_sinks();
  stats_.substeps += 1;
  stats_.last_dt = dt;
}

// CUB's temporary storage, sized at reset for the largest scan (CUB allocates nothing itself,
// and growing it while stepping would free memory, which waits for the device).
void* SphCuda::temp(size_t bytes) {
  temp_.reserve(std::max<size_t>(bytes, 1));
  return temp_.get();
}

size_t SphCuda::scan_storage_bytes(uint32_t most) {
  size_t inclusive = 0, exclusive = 0;
  uint32_t* none = nullptr;  // a size query reads no data
  SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, inclusive, none, none, most, stream_));
  SPH_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, exclusive, none, none, most, stream_));
  return std::max<size_t>({inclusive, exclusive, 1});
}

// Inclusive scan in place over n + 1 counters whose [0] is 0: offsets.
void SphCuda::scan_offsets(uint32_t* counts, uint32_t n) {
  size_t bytes = 0;
  SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, counts, n + 1, stream_));
  void* storage = temp(bytes);
  SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(storage, bytes, counts, counts, n + 1, stream_));
}

// Counting sort by Z-order cell; order_ = input index of each place, cells = offsets by rank.
void SphCuda::sort_by_cells(const Vec3* x, k::Live n, DeviceArray<uint32_t>& cells) {
  const uint32_t cell_count = setup_.grid.cells();
  SPH_CUDA_CHECK(cudaMemsetAsync(cells.get(), 0, sizeof(uint32_t) * (cell_count + 1), stream_));
  if (n.bound == 0) return;
  key_.reserve(n.bound);
  order_.reserve(n.bound);
  launch<k::cell_keys>({k::blocks(n.bound), k::kBlock, 0, stream_}, setup_.grid, rank_.get(), x, n, key_.get(),
                       cells.get());
  scan_offsets(cells.get(), cell_count);
  SPH_CUDA_CHECK(cudaMemcpyAsync(cursor_.get(), cells.get(), sizeof(uint32_t) * cell_count, cudaMemcpyDeviceToDevice, stream_));
  launch<k::scatter>({k::blocks(n.bound), k::kBlock, 0, stream_}, key_.get(), n, cursor_.get(), order_.get());
  launch<k::order_cells>({k::blocks(cell_count), k::kBlock, 0, stream_}, cells.get(), cell_count, order_.get());
  SPH_CUDA_CHECK(cudaGetLastError());
}

namespace {

template <class T>
void permute(DeviceArray<T>& values, DeviceArray<T>& scratch, const uint32_t* order, k::Live n, cudaStream_t stream) {
  launch<k::gather<T>>({k::blocks(n.bound), k::kBlock, 0, stream}, values.get(), order, n, scratch.get());
  values.swap(scratch);
}

}  // namespace

void SphCuda::sort_particles() {
  const k::Live n = live();
  sort_by_cells(position_.get(), n, fluid_cells_);
  permute(position_, vec_scratch_, order_.get(), n, stream_);
  permute(velocity_, vec_scratch_, order_.get(), n, stream_);
  permute(agitation_, float_scratch_, order_.get(), n, stream_);
  permute(density_, float_scratch_, order_.get(), n, stream_);  // published until recomputed
  permute(id_, uint_scratch_, order_.get(), n, stream_);
  SPH_CUDA_CHECK(cudaGetLastError());
}

// Counts, offsets by scan, lists. Sized for the capacity (kListSlots a particle), so no total
// is read back to size them: a list past its slots is cut and reported (FrameRecord::overflow).
void SphCuda::find_neighbours() {
  const sph::NeighbourQuery query{setup_.grid,       rank_.get(),           fluid_cells_.get(),
                                  position_.get(),   boundary_cells_.get(), boundary_position_.get(),
                                  params_.support() * params_.support()};
  const k::Live n = live();
  k::FrameRecord* record = &state_.get()->record;
  SPH_CUDA_CHECK(cudaMemsetAsync(neighbour_begin_.get(), 0, sizeof(uint32_t), stream_));
  SPH_CUDA_CHECK(cudaMemsetAsync(boundary_begin_.get(), 0, sizeof(uint32_t), stream_));
  launch<k::count_neighbours>({k::blocks(n.bound), k::kBlock, 0, stream_}, query, n, neighbour_begin_.get(),
                              boundary_begin_.get(), record);
  SPH_CUDA_CHECK(cudaGetLastError());
  scan_offsets(neighbour_begin_.get(), n.bound);
  scan_offsets(boundary_begin_.get(), n.bound);
  launch<k::clamp_lists>({k::blocks(n.bound + 1), k::kBlock, 0, stream_}, neighbour_begin_.get(), boundary_begin_.get(),
                         n.bound + 1, list_slots_, record);
  launch<k::fill_neighbours>({k::blocks(n.bound), k::kBlock, 0, stream_}, query, n, neighbour_begin_.get(),
                             neighbours_.get(), boundary_begin_.get(), boundary_neighbours_.get());
  SPH_CUDA_CHECK(cudaGetLastError());
}

// DFSPH's solver loop, as SphCpu::solve: all `budget` iterations are enqueued at once, and the
// device's decision after each (finish_solve) makes the rest return at once.
template <k::Solve kSolve>
void SphCuda::solve(int budget, float dt) {
  const sph::Arrays a = arrays();
  const sph::Constants& c = setup_.constants;
  const k::Live n = live();
  const unsigned grid = k::blocks(bound_);
  k::DeviceState* state = state_.get();
  const bool density = kSolve == k::Solve::Density;
  const k::SolveRule rule{kSolve, density ? 2 : 1, params_.max_iterations,
                          density ? params_.density_tolerance : params_.divergence_tolerance};
  SPH_CUDA_CHECK(cudaMemsetAsync(&state->solve, 0, sizeof(k::SolveState), stream_));
  launch<k::predict<kSolve>>({grid, k::kBlock, 0, stream_}, c, a, n, dt, &state->solve, partial_errors_.get());
  launch<k::finish_solve>({1, k::kBlock, 0, stream_}, partial_errors_.get(), grid, n, state, rule, 0, budget == 0);
  for (int iteration = 1; iteration <= budget; ++iteration) {
    launch<k::pressure_update>({grid, k::kBlock, 0, stream_}, a, n, dt, &state->solve);
    launch<k::predict<kSolve>>({grid, k::kBlock, 0, stream_}, c, a, n, dt, &state->solve, partial_errors_.get());
    launch<k::finish_solve>({1, k::kBlock, 0, stream_}, partial_errors_.get(), grid, n, state, rule, iteration,
                            iteration == budget);
  }
  SPH_CUDA_CHECK(cudaGetLastError());
}

void SphCuda::integrate(float dt) {
  k::Walls walls;
  const float r = params_.particle_radius;  // the first sample layer, as on the CPU
  for (int a = 0; a < 3; ++a) walls.min[a] = params_.domain.min[a] - r, walls.max[a] = params_.domain.max[a] + r;
  launch<k::integrate>({k::blocks(bound_), k::kBlock, 0, stream_}, arrays(), previous_velocity_.get(),
                       agitation_.get(), id_.get(), live(), dt, walls, k::time_bits(time_),
                       &state_.get()->record);
  SPH_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meniscus::sim
