#pragma once
// The device arrays behind GpuSortedTileList, shared by its kernels (list, management,
// evolution, records, the particle builder). Everything runs on the default stream, so kernels,
// copies and DeviceArray's synchronous reallocations are ordered without further
// synchronisation.
//
// Every array indexed by pool slot or list position holds `allocated` entries (the rate and
// base arrays allocated x 64), so no pass needs the counters on the host to stay in bounds: a
// list's size never exceeds its capacity, nor its capacity the allocation (a pass that would
// pass it freezes the list instead).
#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/common/cuda_support.cuh"
#include "sim/common/pinned_array.h"
#include "sim/levelset/gpu_stl_device.cuh"
#include "sim/levelset/gpu_stl_list.h"

namespace meniscus::sim::levelset {

// Makes `array` hold at least n elements, keeping the first `keep`. A failed cudaMalloc becomes
// a DeviceError saying what was being allocated for how many tiles and how many bytes.
template <class T>
void device_reserve(DeviceArray<T>& array, size_t n, size_t keep, uint64_t tiles, const char* what) {
  if (n <= array.size()) return;
  const size_t asked = std::max(n, 2 * array.size()) * sizeof(T);  // DeviceArray grows by doubling
  try {
    array.grow_keeping(n, keep);
  } catch (const DeviceMemoryError& error) {  // the array kept what it had
    throw DeviceMemoryError("GPU-STL: the " + std::string(what) + " for " + std::to_string(tiles) + " tiles needs " +
                            std::to_string(asked) + " bytes of GPU memory that the device cannot give (" +
                            error.what() + ")");
  }
}

// Grid sizes for passes whose amount of work only the device knows: each block loops over
// its share (grid-stride), so the launch is bounded and the work follows the counters.
constexpr uint32_t kMaxStrideBlocks = 1024;
inline uint32_t stride_blocks(uint64_t items, uint32_t per_block) {
  return uint32_t(std::clamp<uint64_t>((items + per_block - 1) / per_block, 1, kMaxStrideBlocks));
}

// What the counting passes of a management decide, for the passes after them (one struct in
// device memory, written by one thread).
struct ManagePlan {
  uint32_t apply;            // 0: the list is (or just became) frozen; the passes leave it as it is
  uint32_t free_before;      // the free stack's size before the pass
  uint32_t capacity_before;  // the pool's
  uint32_t grown;            // pool slots added
  uint32_t next_size;        // added + kept
  uint32_t removed;          // tiles freed
  uint32_t grown_left;       // grown slots no created tile took (pushed onto the free stack)
  uint32_t free_base;        // the stack positions below it nobody popped
};

struct GpuStlStorage {
  float gamma = 1.5f;
  TilePrecision precision = TilePrecision::kFloat32;  // which of values / fixed holds the pool
  uint32_t allocated = 0;  // pool slots every pool-indexed array holds

  DeviceArray<GpuStlCounters> counters;  // one
  DeviceArray<TileEntry> active, next_active;
  DeviceArray<float> values;    // kFloat32
  DeviceArray<int16_t> fixed;   // kFixed16
  DeviceArray<uint32_t> activity, border, free_stack;

  // Tile-management scratch: per-unit counts and their prefix sums (added, removed, kept
  // blocks of `units` each), each unit's first free-stack index, the ids freed this pass.
  DeviceArray<uint32_t> counts, offsets, freed;
  DeviceArray<long long> stack_index;
  DeviceArray<unsigned char> scan_temp;
  DeviceArray<ManagePlan> plan;

  // Evolution scratch, per active voxel in list order (as the CPU's rate and base arrays).
  DeviceArray<float> rate, base;
  DeviceArray<float> phi0;          // the reinitialisation's φ0 (allocated when it first runs)
  DeviceArray<uint32_t> reinit_due;  // one flag: this step is one after which the PDE runs
  DeviceArray<uint32_t> speed_bits;  // the CFL speed's float bits (non-negative: uint order)

  // The counters a frame published (publish/poll) and the event after their copy.
  PinnedArray<GpuStlCounters> published{1};
  cudaEvent_t published_event = nullptr;
  bool publishing = false;
  GpuStlCounters seen{};

  GpuStlStorage();
  ~GpuStlStorage();
  GpuStlStorage(const GpuStlStorage&) = delete;
  GpuStlStorage& operator=(const GpuStlStorage&) = delete;

  gpu::ListView view() {
    const bool is_fixed = precision == TilePrecision::kFixed16;
    return {active.get(), 0,     is_fixed ? nullptr : values.get(), is_fixed ? fixed.get() : nullptr,
            activity.get(), border.get(), gamma, counters.get()};
  }
  GpuStlCounters read_counters() const { return counters.read(0); }
  void write_counters(const GpuStlCounters& c) {
    MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(counters.get(), &c, sizeof c, cudaMemcpyHostToDevice));
  }

  // Makes every pool-indexed array hold `slots` entries, keeping the contents (a reallocation:
  // the host waits). Throws DeviceError naming the slots and bytes; nothing changes then.
  void allocate(uint64_t slots);
  // The evolution's per-voxel scratch for the allocation (with the RK base, the reinit's φ0).
  void allocate_rates(bool with_base, bool with_phi0 = false);
  // Clears a freeze after allocate() made room, and queues a frozen management again.
  void thaw(GpuSortedTileList& list, const GpuStlCounters& frozen_counters);

  // Grows the pool to `tiles` slots (values +γ and flags 0 in the new slots, as the CPU's
  // growth fills them) and pushes the new ids as the CPU's grow() does; synchronous (reserve()).
  void grow_pool(uint64_t tiles);
};

}  // namespace meniscus::sim::levelset
