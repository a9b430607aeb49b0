// The coefficient stream on a CUDA device (see coefficient_stream_cuda.h). One thread per voxel
// of a level, grid-stride; every level of the pyramid stays on the device until the stream is
// written, so each detail is compared with the coarse level beneath it directly (EXPAND is
// reading f_{j+1} at n / 2) and no opened level is stored.
#include <cuda_runtime.h>

#include <algorithm>
#include <cub/cub.cuh>
#include <string>
#include <vector>

#include "engine/profile/cuda_event_timer.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/mip/coefficient_stream_cuda.h"

namespace meniscus::sim::mip {
namespace {

constexpr int kThreads = 256;

struct Grid {
  uint32_t x, y, z;
};

__host__ __device__ inline size_t voxel_count(Grid g) { return size_t(g.x) * g.y * g.z; }

unsigned blocks_for(size_t items) {
  return unsigned(std::min<size_t>((items + kThreads - 1) / kThreads, size_t(1) << 16)) + (items == 0);
}

// The volume into the padded f_0: grey 0 outside it.
__global__ void pad_kernel(const uint16_t* volume, Grid dims, uint16_t* padded, Grid padded_dims) {
  const size_t n = voxel_count(padded_dims);
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t x = uint32_t(i % padded_dims.x), y = uint32_t(i / padded_dims.x % padded_dims.y),
                   z = uint32_t(i / (size_t(padded_dims.x) * padded_dims.y));
    padded[i] = x < dims.x && y < dims.y && z < dims.z ? volume[(size_t(z) * dims.y + y) * dims.x + x] : 0;
  }
}

// REDUCE (2.6): the minimum of f_j over each 2x2x2 block.
__global__ void reduce_kernel(const uint16_t* fine, uint16_t* coarse, Grid coarse_dims) {
  const size_t n = voxel_count(coarse_dims);
  const size_t fine_row = size_t(coarse_dims.x) * 2, fine_slice = fine_row * coarse_dims.y * 2;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const size_t x = i % coarse_dims.x, y = i / coarse_dims.x % coarse_dims.y,
                 z = i / (size_t(coarse_dims.x) * coarse_dims.y);
    const uint16_t* corner = fine + 2 * z * fine_slice + 2 * y * fine_row + 2 * x;
    uint16_t low = 0xffff;
    for (int c = 0; c < 8; ++c) {
      const uint16_t v = corner[(c >> 2) * fine_slice + ((c >> 1) & 1) * fine_row + (c & 1)];
      low = v < low ? v : low;
    }
    coarse[i] = low;
  }
}

// What the level-j voxel i of f_j keeps over the opening beneath it: f_j - EXPAND(f_{j+1}), or
// 0 where the opening fits (2.8). The detail is non-zero exactly where this is.
__device__ inline uint32_t excess(const uint16_t* f, const uint16_t* coarse, Grid dims, size_t i) {
  const size_t x = i % dims.x, y = i / dims.x % dims.y, z = i / (size_t(dims.x) * dims.y);
  const uint16_t opened = coarse[(z / 2 * (dims.y / 2) + y / 2) * (dims.x / 2) + x / 2];
  return f[i] > opened ? uint32_t(f[i] - opened) : 0u;
}

__global__ void detail_flags_kernel(const uint16_t* f, const uint16_t* coarse, Grid dims, uint32_t* flags) {
  const size_t n = voxel_count(dims);
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    flags[i] = excess(f, coarse, dims, i) != 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) flags[n] = 0;  // the scan's total lands here
}

// Level j's details at their scanned offsets: the auxiliary error (coefficient_stream.h) as the
// sort key, the packed coefficient as its value.
__global__ void scatter_details_kernel(const uint16_t* f, const uint16_t* coarse, Grid dims, uint32_t level,
                                       const uint32_t* offsets, uint64_t* keys, PackedCoefficient* values) {
  const size_t n = voxel_count(dims);
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const uint32_t gain = excess(f, coarse, dims, i);
    if (!gain) continue;
    const uint32_t x = uint32_t(i % dims.x), y = uint32_t(i / dims.x % dims.y),
                   z = uint32_t(i / (size_t(dims.x) * dims.y));
    keys[offsets[i]] = uint64_t(gain) << (3 * level);
    values[offsets[i]] = pack_coefficient(x, y, z, f[i], level);
  }
}

__global__ void base_flags_kernel(const uint16_t* f, Grid dims, uint32_t* flags) {
  const size_t n = voxel_count(dims);
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    flags[i] = f[i] != 0;
  if (blockIdx.x == 0 && threadIdx.x == 0) flags[n] = 0;
}

__global__ void scatter_base_kernel(const uint16_t* f, Grid dims, uint32_t level, const uint32_t* offsets,
                                    PackedCoefficient* out) {
  const size_t n = voxel_count(dims);
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    if (!f[i]) continue;
    const uint32_t x = uint32_t(i % dims.x), y = uint32_t(i / dims.x % dims.y),
                   z = uint32_t(i / (size_t(dims.x) * dims.y));
    out[offsets[i]] = pack_coefficient(x, y, z, f[i], level);
  }
}

// Grows `scratch` to what a CUB call asks for (the protocol's first call).
template <class Call>
void reserve_cub(DeviceArray<char>& scratch, Call call) {
  size_t bytes = 0;
  MENISCUS_SIM_CUDA_CHECK(call(nullptr, bytes));
  scratch.reserve(bytes, "MIP coefficient stream (cuda): CUB's scratch");
}

// An exclusive scan of `flags` (count + 1 entries, the last 0) in place: each flagged item's
// rank, and the total at [count]. `scratch` holds what the scan asked for.
void scan_in_place(DeviceArray<uint32_t>& flags, size_t count, DeviceArray<char>& scratch) {
  size_t bytes = scratch.size();
  MENISCUS_SIM_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scratch.get(), bytes, flags.get(), flags.get(), (long long)(count + 1)));
}

Grid grid_of(glm::uvec3 d) { return {d.x, d.y, d.z}; }

}  // namespace

StreamIndex build_coefficient_stream_cuda(const GreyVolume& volume, uint32_t levels,
                                          const std::function<PackedCoefficient*(size_t count)>& destination,
                                          double* device_ms) {
  check_pyramid_levels(volume.dims, levels);
  StreamIndex index;
  index.dims = volume.dims;
  index.padded_dims = padded_pyramid_dims(volume.dims, levels);
  index.levels = levels;
  check_packing(index.padded_dims);

  std::vector<Grid> dims(levels + 1);
  std::vector<DeviceArray<uint16_t>> f(levels + 1);  // f_0 (padded) .. f_L
  for (uint32_t j = 0; j <= levels; ++j) {
    dims[j] = grid_of(index.padded_dims >> j);
    f[j].reserve(voxel_count(dims[j]), "MIP coefficient stream (cuda): a pyramid level");
  }
  {
    DeviceArray<uint16_t> source;
    source.reserve(volume.values.size(), "MIP coefficient stream (cuda): the volume");
    MENISCUS_SIM_CUDA_CHECK(
        cudaMemcpy(source.get(), volume.values.data(), volume.values.size() * 2, cudaMemcpyHostToDevice));
    launch<pad_kernel>({blocks_for(voxel_count(dims[0])), kThreads}, source.get(), grid_of(volume.dims), f[0].get(),
                       dims[0]);
    MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());  // `source` is freed here
  }
  // Everything is allocated outside the two timed phases (count, then write), so the time is
  // the kernels' and CUB's alone.
  std::vector<DeviceArray<uint32_t>> ranks(levels + 1);  // each level's detail ranks; [L]: the base's
  for (uint32_t j = 0; j <= levels; ++j)
    ranks[j].reserve(voxel_count(dims[j]) + 1, "MIP coefficient stream (cuda): a level's ranks");
  DeviceArray<uint32_t> totals;  // each level's count, gathered for one read
  totals.reserve(levels + 1, "MIP coefficient stream (cuda): the counts");
  DeviceArray<char> scratch;
  reserve_cub(scratch, [&](void* storage, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(storage, bytes, ranks[0].get(), ranks[0].get(),
                                         (long long)(voxel_count(dims[0]) + 1));
  });

  profile::CudaEventTimer count_timer, write_timer;
  count_timer.begin(nullptr);
  for (uint32_t j = 0; j < levels; ++j)
    launch<reduce_kernel>({blocks_for(voxel_count(dims[j + 1])), kThreads}, f[j].get(), f[j + 1].get(), dims[j + 1]);
  for (uint32_t j = 0; j <= levels; ++j) {
    const size_t n = voxel_count(dims[j]);
    if (j < levels)
      launch<detail_flags_kernel>({blocks_for(n), kThreads}, f[j].get(), f[j + 1].get(), dims[j], ranks[j].get());
    else
      launch<base_flags_kernel>({blocks_for(n), kThreads}, f[j].get(), dims[j], ranks[j].get());
    scan_in_place(ranks[j], n, scratch);
    MENISCUS_SIM_CUDA_CHECK(
        cudaMemcpyAsync(totals.get() + j, ranks[j].get() + n, sizeof(uint32_t), cudaMemcpyDeviceToDevice));
  }
  count_timer.end(nullptr);
  const std::vector<uint32_t> counts = totals.download(levels + 1);

  // Levels follow each other in the candidates, each in position order.
  std::vector<size_t> first(levels, 0);
  size_t details = 0;
  for (uint32_t j = 0; j < levels; ++j) first[j] = details, details += counts[j];
  const size_t base = counts[levels];
  index.base_count = uint32_t(base);
  PackedCoefficient* out = destination(base + details);
  DeviceArray<uint64_t> keys, sorted_keys;
  DeviceArray<PackedCoefficient> values;
  // The largest key is 65535 << 3 (L - 1): only those bits need sorting.
  const int key_bits = 16 + 3 * std::max(int(levels) - 1, 0);
  if (details) {
    keys.reserve(details, "MIP coefficient stream (cuda): the auxiliary errors");
    sorted_keys.reserve(details, "MIP coefficient stream (cuda): the sorted auxiliary errors");
    values.reserve(details, "MIP coefficient stream (cuda): the unsorted details");
    reserve_cub(scratch, [&](void* storage, size_t& bytes) {
      return cub::DeviceRadixSort::SortPairsDescending(storage, bytes, keys.get(), sorted_keys.get(), values.get(),
                                                       out + base, (long long)details, 0, key_bits);
    });
    reserve_cub(scratch, [&](void* storage, size_t& bytes) {
      return cub::DeviceScan::InclusiveSum(storage, bytes, sorted_keys.get(), keys.get(), (long long)details);
    });
  }

  write_timer.begin(nullptr);
  launch<scatter_base_kernel>({blocks_for(voxel_count(dims[levels])), kThreads}, f[levels].get(), dims[levels],
                              levels, ranks[levels].get(), out);
  if (details) {
    for (uint32_t j = 0; j < levels; ++j)
      launch<scatter_details_kernel>({blocks_for(voxel_count(dims[j])), kThreads}, f[j].get(), f[j + 1].get(),
                                     dims[j], j, ranks[j].get(), keys.get() + first[j], values.get() + first[j]);
    size_t bytes = scratch.size();
    MENISCUS_SIM_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(scratch.get(), bytes, keys.get(), sorted_keys.get(),
                                                                      values.get(), out + base, (long long)details, 0,
                                                                      key_bits));
    // The running sum of the sorted errors, over the unsorted keys (no longer needed).
    bytes = scratch.size();
    MENISCUS_SIM_CUDA_CHECK(
        cub::DeviceScan::InclusiveSum(scratch.get(), bytes, sorted_keys.get(), keys.get(), (long long)details));
  }
  write_timer.end(nullptr);
  if (details) {
    const std::vector<uint64_t> removed = keys.download(details);
    index.removed_error.insert(index.removed_error.end(), removed.begin(), removed.end());
  }
  MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize());  // the stream is written when this returns
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  if (device_ms) *device_ms = count_timer.elapsed_ms() + write_timer.elapsed_ms();
  return index;
}

CoefficientStream build_coefficient_stream_cuda(const GreyVolume& volume, uint32_t levels, double* device_ms) {
  DeviceArray<PackedCoefficient> coefficients;
  CoefficientStream stream;
  stream.index = build_coefficient_stream_cuda(
      volume, levels,
      [&](size_t count) {
        coefficients.reserve(std::max<size_t>(count, 1), "MIP coefficient stream (cuda): the coefficients");
        return coefficients.get();
      },
      device_ms);
  const std::vector<PackedCoefficient> all =
      coefficients.download(size_t(stream.index.base_count) + stream.index.detail_count());
  stream.base.assign(all.begin(), all.begin() + stream.index.base_count);
  stream.details.assign(all.begin() + stream.index.base_count, all.end());
  return stream;
}

}  // namespace meniscus::sim::mip
