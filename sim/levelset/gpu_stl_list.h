#pragma once
// The sorted tile list on a CUDA device (GPU-STL, Jalba et al. 2013 §3.3): the same arrays as
// SortedTileList — the active list of (key, id) in key order, the 4^3 float tile pool, the
// activity and border flags, the LIFO free stack — in device memory, with tile management in
// the paper's passes (count, prefix sum, status, get_index, update; gpu_stl_manage_cuda.cu).
//
// Ids are allocated exactly as the CPU does (the k-th tile created in key order pops the k-th
// id off the free stack; growth appends ids in the CPU's order; freed ids are pushed in key
// order), so after upload, the same steps on both backends and download, the two lists agree
// entry by entry, ids and free stack included.
//
// Built from the *_cuda.cu files with MENISCUS_CUDA, else gpu_stl_absent.cpp (every call
// throws DeviceError saying so).
#include <cstdint>
#include <memory>
#include <string>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct GpuStlStorage;  // device arrays (gpu_stl_storage.cuh)

// Whether the CUDA backend is built and a device answers; `why` says why not.
bool gpu_stl_available(std::string* why);
// The CUDA device the backend runs on (for benchmark records).
std::string gpu_stl_device_name();

class GpuSortedTileList {
 public:
  // Uploads the whole state of `list` (throws DeviceError when no device or memory).
  explicit GpuSortedTileList(const SortedTileList& list);
  ~GpuSortedTileList();
  GpuSortedTileList(const GpuSortedTileList&) = delete;
  GpuSortedTileList& operator=(const GpuSortedTileList&) = delete;

  float gamma() const;
  size_t size() const;
  uint32_t capacity() const;

  // The whole state as a CPU list (values of every pool slot, flags, free stack).
  SortedTileList download() const;

  // Tile management: creates requested tiles, frees unneeded ones, grows the pool when the free
  // stack runs dry — the CPU's manage() on the device. The 16-byte status is the only read-back
  // (one host wait per call; GpuLevelSetEvolution::step brings its dt back in the same copy).
  TileStatus manage();

  // Grows the pool to at least `tiles` slots as the CPU's growth would (new ids on the free
  // stack, lowest on top). Throws DeviceError naming the tiles and bytes asked for when the
  // device cannot hold them; the list is unchanged then.
  void reserve(uint64_t tiles);

  // Waits for the work queued on the device (manage() returns with its last passes queued).
  void synchronize() const;

  GpuStlStorage& storage() { return *storage_; }

 private:
  std::unique_ptr<GpuStlStorage> storage_;
};

}  // namespace meniscus::sim::levelset
