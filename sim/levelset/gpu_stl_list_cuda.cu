// GpuSortedTileList's storage: upload from and download to a SortedTileList (its whole state,
// so the two backends compare entry by entry), the allocation and the pool's growth, and the
// counters' read-backs (at once, or a frame late through publish/poll). Tile management is in
// gpu_stl_manage_cuda.cu.
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/gpu_stl_storage.cuh"

namespace meniscus::sim::levelset {
namespace {

constexpr int kFillBlock = 256;

__global__ void fill_values(gpu::ListView list, size_t begin, size_t end, float value) {
  const size_t i = begin + size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < end) gpu::store_phi(list, i, value);
}

// Stack positions at, at + 1, ... receive ids top, top - 1, ... (`count` of them), as the
// CPU's grow() pushes them.
__global__ void push_grown(uint32_t* stack, uint32_t at, uint32_t top, uint32_t count) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) stack[at + i] = top - i;
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
    s.precision = list.precision_;
    s.allocate(std::max<uint64_t>(list.capacity_, 1));
    GpuStlCounters c;
    c.size = uint32_t(list.active_.size());
    c.capacity = list.capacity_;
    c.free_count = uint32_t(list.free_.size());
    s.write_counters(c);
    s.seen = c;
    upload_vector(s.active, list.active_);
    upload_vector(s.values, list.floats_);
    upload_vector(s.fixed, list.fixed_);
    upload_vector(s.activity, list.activity_);
    upload_vector(s.border, list.border_);
    upload_vector(s.free_stack, list.free_);
  }

  static SortedTileList download(const GpuStlStorage& s, const GpuStlCounters& c) {
    SortedTileList list(s.gamma, 1, s.precision);
    list.capacity_ = c.capacity;
    list.active_ = s.active.download(c.size);
    list.free_ = s.free_stack.download(c.free_count);
    if (s.precision == TilePrecision::kFloat32) list.floats_ = s.values.download(size_t(c.capacity) * kTileVoxels);
    else list.fixed_ = s.fixed.download(size_t(c.capacity) * kTileVoxels);
    list.activity_ = s.activity.download(c.capacity);
    list.border_ = s.border.download(c.capacity);
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

GpuStlStorage::GpuStlStorage() {
  device_reserve(counters, 1, 0, 0, "list counters");
  device_reserve(plan, 1, 0, 0, "tile-management plan");
  device_reserve(speed_bits, 1, 0, 0, "CFL speed");
  device_reserve(reinit_due, 1, 0, 0, "reinitialisation flag");
  MENISCUS_SIM_CUDA_CHECK(cudaEventCreate(&published_event));
}

GpuStlStorage::~GpuStlStorage() {
  if (published_event) cudaEventDestroy(published_event);
}

void GpuStlStorage::allocate(uint64_t slots) {
  if (slots <= allocated) return;
  // Ids must stay below kNoTile, the "no tile" marker.
  if (slots >= gpu::kNoTile)
    throw DeviceError("GPU-STL: the tile pool cannot grow to " + std::to_string(slots) + " tiles (32-bit ids)");
  // Growth keeps what is there; the list's counters bound what matters, the allocation all of it.
  const size_t old = allocated;
  if (precision == TilePrecision::kFloat32)
    device_reserve(values, size_t(slots) * kTileVoxels, old * kTileVoxels, slots, "tile pool");
  else
    device_reserve(fixed, size_t(slots) * kTileVoxels, old * kTileVoxels, slots, "16-bit tile pool");
  device_reserve(activity, slots, old, slots, "activity flags");
  device_reserve(border, slots, old, slots, "border flags");
  device_reserve(free_stack, slots, old, slots, "free stack");
  device_reserve(active, slots, old, slots, "active list");
  device_reserve(next_active, slots, 0, slots, "next active list");
  device_reserve(freed, slots, 0, slots, "freed-id list");
  if (rate.size()) allocate_rates(base.size() != 0, phi0.size() != 0);
  allocated = uint32_t(slots);
}

void GpuStlStorage::allocate_rates(bool with_base, bool with_phi0) {
  const size_t voxels = size_t(std::max(allocated, 1u)) * kTileVoxels;
  device_reserve(rate, voxels, 0, allocated, "rate array");
  if (with_base) device_reserve(base, voxels, 0, allocated, "Runge-Kutta base array");
  if (with_phi0) device_reserve(phi0, voxels, 0, allocated, "reinitialisation phi0 array");
}

void GpuStlStorage::grow_pool(uint64_t tiles) {
  const GpuStlCounters c = read_counters();
  if (tiles <= c.capacity) return;
  allocate(std::max<uint64_t>(tiles, allocated));
  const size_t begin = size_t(c.capacity) * kTileVoxels, end = size_t(tiles) * kTileVoxels;
  launch<fill_values>({unsigned((end - begin + kFillBlock - 1) / kFillBlock), kFillBlock}, view(), begin, end, gamma);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  MENISCUS_SIM_CUDA_CHECK(cudaMemset(activity.get() + c.capacity, 0, sizeof(uint32_t) * (tiles - c.capacity)));
  MENISCUS_SIM_CUDA_CHECK(cudaMemset(border.get() + c.capacity, 0, sizeof(uint32_t) * (tiles - c.capacity)));
  const uint32_t count = uint32_t(tiles - c.capacity);
  launch<push_grown>({(count + kFillBlock - 1) / kFillBlock, kFillBlock}, free_stack.get(), c.free_count,
                     uint32_t(tiles - 1), count);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  GpuStlCounters grown = c;
  grown.capacity = uint32_t(tiles);
  grown.free_count = c.free_count + count;
  write_counters(grown);
}

void GpuStlStorage::thaw(GpuSortedTileList& list, const GpuStlCounters& frozen_counters) {
  GpuStlCounters c = frozen_counters;
  const GpuStlFrozen was = c.frozen;
  c.frozen = GpuStlFrozen::kNo;
  c.needed = 0;
  write_counters(c);
  // A frozen rebuild left the list before it whole; a frozen management runs again on the
  // values it found, which nothing has changed since.
  if (was == GpuStlFrozen::kInManage) list.queue_manage();
}

GpuSortedTileList::GpuSortedTileList(const SortedTileList& list) {
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("GPU-STL level sets: " + why);
  storage_ = std::make_unique<GpuStlStorage>();
  GpuStlTransfer::upload(list, *storage_);
}

GpuSortedTileList::~GpuSortedTileList() = default;

float GpuSortedTileList::gamma() const { return storage_->gamma; }
uint32_t GpuSortedTileList::allocated() const { return storage_->allocated; }

void GpuSortedTileList::synchronize() const { MENISCUS_SIM_CUDA_CHECK(cudaDeviceSynchronize()); }

GpuStlCounters GpuSortedTileList::counters() {
  GpuStlStorage& s = *storage_;
  GpuStlCounters c = s.read_counters();
  // A freeze is resolved until it stays resolved (a re-run management may itself outgrow the
  // allocation it was given only if the pool doubled more than once: then it grows again).
  while (c.frozen != GpuStlFrozen::kNo) {
    s.allocate(uint64_t(c.needed) * kGrowth);
    s.thaw(*this, c);
    c = s.read_counters();
  }
  return c;
}

size_t GpuSortedTileList::size() { return counters().size; }
uint32_t GpuSortedTileList::capacity() { return counters().capacity; }

SortedTileList GpuSortedTileList::download() {
  const GpuStlCounters c = counters();
  return GpuStlTransfer::download(*storage_, c);
}

void GpuSortedTileList::publish() {
  GpuStlStorage& s = *storage_;
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpyAsync(s.published.get(), s.counters.get(), sizeof(GpuStlCounters), cudaMemcpyDeviceToHost));
  MENISCUS_SIM_CUDA_CHECK(cudaEventRecord(s.published_event, nullptr));
  s.publishing = true;
}

GpuStlCounters GpuSortedTileList::poll() {
  GpuStlStorage& s = *storage_;
  if (s.publishing) {
    const cudaError_t state = cudaEventQuery(s.published_event);
    if (state == cudaSuccess) {
      s.seen = s.published[0];
      s.publishing = false;
    } else if (state != cudaErrorNotReady) {
      MENISCUS_SIM_CUDA_CHECK(state);
    }
  }
  const GpuStlCounters seen = s.seen;
  if (seen.frozen != GpuStlFrozen::kNo) {
    // Nothing has changed the list since it froze, whatever was queued after: grow, and run a
    // frozen management again from the counters as they are now.
    s.allocate(uint64_t(seen.needed) * kGrowth);
    s.thaw(*this, s.read_counters());
    s.seen.frozen = GpuStlFrozen::kNo;
  } else if (uint64_t(seen.capacity) * kHeadroom > s.allocated) {
    s.allocate(uint64_t(seen.capacity) * kGrowth);
  }
  return seen;
}

void GpuSortedTileList::reserve(uint64_t tiles) {
  const GpuStlCounters c = counters();
  if (tiles <= c.capacity) return;
  // The CPU's grow(): at least double, the new ids pushed so the lowest comes off first.
  storage_->grow_pool(std::max<uint64_t>(tiles, 2 * uint64_t(c.capacity)));
}

}  // namespace meniscus::sim::levelset
