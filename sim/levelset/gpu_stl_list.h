#pragma once
// The sorted tile list on a CUDA device (GPU-STL, Jalba et al. 2013 §3.3): the same arrays as
// SortedTileList — the active list of (key, id) in key order, the 4^3 tile pool (float32 or
// fixed16, as the list it was uploaded from), the activity and border flags, the LIFO free
// stack — in device memory, with tile management in the paper's passes (count, prefix sum,
// status, get_index, update; gpu_stl_manage_cuda.cu).
//
// Ids are allocated exactly as the CPU does (the k-th tile created in key order pops the k-th
// id off the free stack; growth appends ids in the CPU's order; freed ids are pushed in key
// order), so after upload, the same steps on both backends and download, the two lists agree
// entry by entry, ids and free stack included.
//
// The list's counters (size, capacity, free count) live on the device, so a step is queued
// without the host knowing them: kernels read the counters, launches are sized by the
// allocation. A pass that would grow the pool past the allocation changes nothing and freezes
// the list (every later pass leaves it as it is) until the host grows the allocation:
//   - the synchronous calls (manage(), size(), download(), GpuLevelSetEvolution::step) read
//     the counters at once and grow and re-run a frozen pass before they return, as the CPU
//     list grows inside manage();
//   - a frame queues its passes and calls poll(), which looks at the counters of an earlier
//     frame without waiting (publish() queued their copy) and resolves a freeze the frame
//     after it happened. Keeping the allocation ahead of the pool (kHeadroom) makes that rare.
//
// Built from the *_cuda.cu files with MENISCUS_CUDA, else gpu_stl_absent.cpp (every call
// throws DeviceError saying so).
#include <cstdint>
#include <memory>
#include <string>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct GpuStlStorage;  // device arrays (gpu_stl_storage.cuh)

// Why a list is frozen: nothing has changed it since the pass that did not fit.
enum class GpuStlFrozen : uint32_t {
  kNo = 0,
  kInManage = 1,  // a management needed more pool slots; it runs again once they are there
  kInBuild = 2,   // a rebuild (particle_level_set_gpu.h) needed more; the list is the one before
};

// The list's counters as the device keeps them (the host reads copies of them).
struct GpuStlCounters {
  uint32_t size = 0;        // active tiles
  uint32_t capacity = 0;    // pool slots in use (the CPU list's capacity())
  uint32_t free_count = 0;  // ids on the free stack, top at free_count - 1
  GpuStlFrozen frozen = GpuStlFrozen::kNo;
  uint32_t needed = 0;      // the most pool slots a frozen pass asked for since the host last grew
  uint32_t steps = 0;       // evolution steps taken
  TileStatus status{};      // the last management's
  float dt = 0;             // the last evolution step's
  float step_start = 0;     // that step's start time (the t its rates were evaluated at)
  double time = 0;          // time advanced by steps queued on device time (queue_step)
  // The last step's change of φ over the front (|φ| <= ½ before it), for ITK's RMS measure:
  // the sum of squared changes and how many voxels it counts.
  double front_squares = 0;
  uint32_t front_voxels = 0;
  uint32_t front_speed_bits = 0;      // the largest |F| there at the first stage (float bits)
  uint32_t front_curvature_bits = 0;  // and the largest |α κ|∇φ|| (float bits)
};

// Whether the CUDA backend is built and a device answers; `why` says why not.
bool gpu_stl_available(std::string* why);
// The CUDA device the backend runs on (for benchmark records).
std::string gpu_stl_device_name();

class GpuSortedTileList {
 public:
  // The allocation is kept at least kHeadroom times the pool in use, so that the CPU's growth
  // by doubling does not outrun it between two polls; when the pool passes that, the allocation
  // grows to kGrowth times the pool, so that a surface that keeps growing reallocates once per
  // doubling, not every frame.
  static constexpr uint32_t kHeadroom = 2;
  static constexpr uint32_t kGrowth = 4;

  // Uploads the whole state of `list` (throws DeviceError when no device or memory).
  explicit GpuSortedTileList(const SortedTileList& list);
  ~GpuSortedTileList();
  GpuSortedTileList(const GpuSortedTileList&) = delete;
  GpuSortedTileList& operator=(const GpuSortedTileList&) = delete;

  float gamma() const;
  // The counters now: waits for the queued work, resolving a freeze first.
  GpuStlCounters counters();
  size_t size();
  uint32_t capacity();
  // Pool slots the device arrays hold (no wait: the host decides them).
  uint32_t allocated() const;

  // The whole state as a CPU list (values of every pool slot, flags, free stack); waits, and
  // resolves a freeze first.
  SortedTileList download();

  // Tile management, synchronously: creates requested tiles, frees unneeded ones, grows the
  // pool when the free stack runs dry — the CPU's manage() on the device — and returns its
  // status (one host wait; two and a reallocation when the allocation had to grow).
  TileStatus manage();
  // The same passes, queued: no wait; a pool growth beyond the allocation freezes the list.
  void queue_manage();

  // Queues a copy of the counters that poll() will read once the device has passed it.
  void publish();
  // The newest published counters the device has written, without waiting (zeros before the
  // first), as they were published. A freeze they show is resolved before poll() returns: the
  // allocation grows (a reallocation: the host waits, once per growth) and a frozen management
  // is queued again. The allocation also grows ahead when the pool has come within kHeadroom
  // of it.
  GpuStlCounters poll();

  // Grows the pool to at least `tiles` slots as the CPU's growth would (new ids on the free
  // stack, lowest on top). Throws DeviceError naming the tiles and bytes asked for when the
  // device cannot hold them; the list is unchanged then. Waits for the device.
  void reserve(uint64_t tiles);

  // Waits for the work queued on the device.
  void synchronize() const;

  GpuStlStorage& storage() { return *storage_; }

 private:
  std::unique_ptr<GpuStlStorage> storage_;
};

}  // namespace meniscus::sim::levelset
