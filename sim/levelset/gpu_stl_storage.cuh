#pragma once
// The device arrays behind GpuSortedTileList, shared by its kernels (list, management,
// evolution). Everything runs on the default stream, so kernels, copies and DeviceArray's
// synchronous reallocations are ordered without further synchronisation.
#include <algorithm>
#include <cstdint>
#include <string>

#include "sim/common/cuda_support.cuh"
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
  } catch (const DeviceError& error) {
    cudaGetLastError();  // out of memory is not sticky; clear it for the calls that follow
    throw DeviceError("GPU-STL: the " + std::string(what) + " for " + std::to_string(tiles) + " tiles needs " +
                      std::to_string(asked) + " bytes of GPU memory that the device cannot give (" + error.what() + ")");
  }
}

// What manage() reads back, in one copy: its status and, when an evolution step queued it before
// the management, that step's dt (chosen on the device from the CFL speed), so that a step waits
// on the host once, not twice.
struct ManageReadback {
  TileStatus status;
  float dt;
};

struct GpuStlStorage {
  float gamma = 1.5f;
  uint32_t size = 0;        // active tiles
  uint32_t capacity = 0;    // pool slots (the CPU list's capacity(); arrays may be larger)
  uint32_t free_count = 0;  // ids on the free stack, top at free_count - 1

  DeviceArray<TileEntry> active, next_active;
  DeviceArray<float> values;
  DeviceArray<uint32_t> activity, border, free_stack;

  // Tile-management scratch: per-unit counts and their prefix sums (added, removed, kept
  // blocks of `units` each), each unit's first free-stack index, the ids freed this pass.
  DeviceArray<uint32_t> counts, offsets, freed;
  DeviceArray<long long> stack_index;
  DeviceArray<unsigned char> scan_temp;
  DeviceArray<ManageReadback> status;
  float last_dt = 0;  // the dt field of manage()'s last read-back

  // Evolution scratch, per active voxel in list order (as the CPU's rate and base arrays).
  DeviceArray<float> rate, base;
  DeviceArray<uint32_t> speed_bits;  // the CFL speed's float bits (non-negative: uint order)

  gpu::ListView view() {
    return {active.get(), size, values.get(), activity.get(), border.get(), gamma};
  }

  // Grows the pool arrays to `tiles` slots (values +γ and flags 0 in the new slots, as the
  // CPU's growth fills them) without touching the free stack. Throws DeviceError naming the
  // tiles and bytes when the device cannot hold them; nothing changes then.
  void grow_pool(uint64_t tiles);
  // Pushes ids top, top - 1, ..., top - count + 1 at stack positions from `at` on, then the
  // `removed` ids of `freed` (clearing their flags), as the CPU's growth and manage() do.
  void push_free(uint32_t at, uint32_t top, uint32_t count, uint32_t removed);
};

}  // namespace meniscus::sim::levelset
