// Without MENISCUS_CUDA: the GPU-STL backend says so, as an error and as a reason.
#include "engine/core/error.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/gpu_stl_records.h"

namespace meniscus::sim::levelset {
namespace {
constexpr const char* kNotBuilt = "GPU-STL level sets: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)";
}

struct GpuStlStorage {};

bool gpu_stl_available(std::string* why) {
  if (why) *why = kNotBuilt;
  return false;
}

std::string gpu_stl_device_name() { return "none"; }

GpuSortedTileList::GpuSortedTileList(const SortedTileList&) { throw DeviceError(kNotBuilt); }
GpuSortedTileList::~GpuSortedTileList() = default;
float GpuSortedTileList::gamma() const { throw DeviceError(kNotBuilt); }
GpuStlCounters GpuSortedTileList::counters() { throw DeviceError(kNotBuilt); }
size_t GpuSortedTileList::size() { throw DeviceError(kNotBuilt); }
uint32_t GpuSortedTileList::capacity() { throw DeviceError(kNotBuilt); }
uint32_t GpuSortedTileList::allocated() const { throw DeviceError(kNotBuilt); }
SortedTileList GpuSortedTileList::download() { throw DeviceError(kNotBuilt); }
TileStatus GpuSortedTileList::manage() { throw DeviceError(kNotBuilt); }
void GpuSortedTileList::queue_manage() { throw DeviceError(kNotBuilt); }
void GpuSortedTileList::publish() { throw DeviceError(kNotBuilt); }
GpuStlCounters GpuSortedTileList::poll() { throw DeviceError(kNotBuilt); }
void GpuSortedTileList::reserve(uint64_t) { throw DeviceError(kNotBuilt); }
void GpuSortedTileList::synchronize() const { throw DeviceError(kNotBuilt); }

GpuLevelSetEvolution::GpuLevelSetEvolution(GpuEvolutionParams params) : params_(params) { throw DeviceError(kNotBuilt); }
float GpuLevelSetEvolution::step(GpuSortedTileList&, float, float) { throw DeviceError(kNotBuilt); }
void GpuLevelSetEvolution::queue_step(GpuSortedTileList&, float) { throw DeviceError(kNotBuilt); }

void write_cube_records(GpuSortedTileList&, float, void*, uint32_t, const char*) { throw DeviceError(kNotBuilt); }

}  // namespace meniscus::sim::levelset
