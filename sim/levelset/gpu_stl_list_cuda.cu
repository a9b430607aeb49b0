// GpuSortedTileList's storage: upload from and download to a SortedTileList (its whole state,
// so the two backends compare entry by entry), and the pool's growth. Tile management is in
// gpu_stl_manage_cuda.cu.
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/levelset/gpu_stl_list.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/gpu_stl_storage.cuh"

namespace meniscus::sim::levelset {
namespace {

constexpr int kFillBlock = 256;

__global__ void fill_values(float* values, size_t begin, size_t end, float value) {
  const size_t i = begin + size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < end) values[i] = value;
}

// Stack positions at, at + 1, ... receive ids top, top - 1, ... (`count` of them), then the
// freed ids in order; a freed slot's flags are cleared as the CPU clears them.
__global__ void push_ids(uint32_t* stack, uint32_t at, uint32_t top, uint32_t count, const uint32_t* freed,
                         uint32_t removed, uint32_t* activity, uint32_t* border) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) {
    stack[at + i] = top - i;
  } else if (i < count + removed) {
    const uint32_t id = freed[i - count];
    stack[at + i] = id;
    activity[id] = 0;
    border[id] = 0;
  }
}

template <class T>
void upload_vector(DeviceArray<T>& to, const std::vector<T>& from) {
  if (!from.empty()) MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(to.get(), from.data(), sizeof(T) * from.size(), cudaMemcpyHostToDevice));
}

}  // namespace

// The friend of SortedTileList (sorted_tile_list.h) that copies its private state.
struct GpuStlTransfer {
  static void upload(const SortedTileList& list, GpuStlStorage& s) {
    s.gamma = list.gamma_;
    s.capacity = list.capacity_;
    s.size = uint32_t(list.active_.size());
    s.free_count = uint32_t(list.free_.size());
    const uint64_t tiles = s.capacity;
    device_reserve(s.active, std::max<size_t>(s.size, 1), 0, tiles, "active list");
    device_reserve(s.values, size_t(s.capacity) * kTileVoxels, 0, tiles, "tile pool");
    device_reserve(s.activity, s.capacity, 0, tiles, "activity flags");
    device_reserve(s.border, s.capacity, 0, tiles, "border flags");
    device_reserve(s.free_stack, s.capacity, 0, tiles, "free stack");
    upload_vector(s.active, list.active_);
    upload_vector(s.values, list.values_);
    upload_vector(s.activity, list.activity_);
    upload_vector(s.border, list.border_);
    upload_vector(s.free_stack, list.free_);
  }

  static SortedTileList download(const GpuStlStorage& s) {
    SortedTileList list(s.gamma, 1);
    list.capacity_ = s.capacity;
    list.active_ = s.active.download(s.size);
    list.free_ = s.free_stack.download(s.free_count);
    list.values_ = s.values.download(size_t(s.capacity) * kTileVoxels);
    list.activity_ = s.activity.download(s.capacity);
    list.border_ = s.border.download(s.capacity);
    return list;
  }
};

bool gpu_stl_available(std::string* why) { return cuda_device_answers(why); }

std::string gpu_stl_device_name() {
  int device = 0;
  cudaDeviceProp properties{};
  MENISCUS_SIM_CUDA_CHECK(cudaGetDevice(&device));
  MENISCUS_SIM_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  return properties.name;
}

void GpuSortedTileList::synchronize() const { MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize()); }

GpuSortedTileList::GpuSortedTileList(const SortedTileList& list) : storage_(std::make_unique<GpuStlStorage>()) {
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("GPU-STL level sets: " + why);
  GpuStlTransfer::upload(list, *storage_);
}

GpuSortedTileList::~GpuSortedTileList() = default;

float GpuSortedTileList::gamma() const { return storage_->gamma; }
size_t GpuSortedTileList::size() const { return storage_->size; }
uint32_t GpuSortedTileList::capacity() const { return storage_->capacity; }

SortedTileList GpuSortedTileList::download() const { return GpuStlTransfer::download(*storage_); }

void GpuStlStorage::grow_pool(uint64_t tiles) {
  if (tiles <= capacity) return;
  // Ids must stay below kNoTile, the "no tile" marker.
  if (tiles >= gpu::kNoTile)
    throw DeviceError("GPU-STL: the tile pool cannot grow to " + std::to_string(tiles) + " tiles (32-bit ids)");
  device_reserve(values, size_t(tiles) * kTileVoxels, size_t(capacity) * kTileVoxels, tiles, "tile pool");
  device_reserve(activity, tiles, capacity, tiles, "activity flags");
  device_reserve(border, tiles, capacity, tiles, "border flags");
  device_reserve(free_stack, tiles, free_count, tiles, "free stack");
  const size_t begin = size_t(capacity) * kTileVoxels, end = size_t(tiles) * kTileVoxels;
  launch<fill_values>({unsigned((end - begin + kFillBlock - 1) / kFillBlock), kFillBlock}, values.get(), begin, end, gamma);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  MENISCUS_SIM_CUDA_CHECK(cudaMemset(activity.get() + capacity, 0, sizeof(uint32_t) * (tiles - capacity)));
  MENISCUS_SIM_CUDA_CHECK(cudaMemset(border.get() + capacity, 0, sizeof(uint32_t) * (tiles - capacity)));
  capacity = uint32_t(tiles);
}

void GpuStlStorage::push_free(uint32_t at, uint32_t top, uint32_t count, uint32_t removed) {
  const uint32_t threads = count + removed;
  if (threads == 0) return;
  launch<push_ids>({(threads + kFillBlock - 1) / kFillBlock, kFillBlock}, free_stack.get(), at, top, count, freed.get(), removed,
                   activity.get(), border.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

void GpuSortedTileList::reserve(uint64_t tiles) {
  GpuStlStorage& s = *storage_;
  if (tiles <= s.capacity) return;
  // The CPU's grow(): at least double, the new ids pushed so the lowest comes off first.
  const uint64_t before = s.capacity, after = std::max<uint64_t>(tiles, 2 * before);
  s.grow_pool(after);
  s.push_free(s.free_count, uint32_t(after - 1), uint32_t(after - before), 0);
  s.free_count += uint32_t(after - before);
}

}  // namespace meniscus::sim::levelset
