// Cube records made on the device (gpu_stl_records.h) against the CPU's write_cube_records
// (cube_records.h): for the same list both write a buffer in cube_record_buffer.h's layout, and
// the two must be equal byte for byte — header, records, and the untouched bytes after the
// records written. Level sets: spheres, mesh level sets, Enright's sphere evolved on both
// backends, bands cut by the ends of the tile-key range, iso values off zero, an empty list,
// buffers too small; and the device call must return while the stream is still held.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/core/error.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/gpu_stl_records.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/mesh_level_set.h"
#include "tests/sim/levelset/levelset_test_helpers.h"
#include "tests/sim/levelset_mesh/test_meshes.h"
#include "tests/support/device_checks.h"

#if MENISCUS_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace meniscus::sim::levelset {
namespace {

#if MENISCUS_HAS_CUDA
using device_test::check;

// Both buffers start as this byte, so bytes neither backend writes compare equal, and a device
// write past the records it may write shows.
constexpr unsigned char kFill = 0x5A;

void cuda_check(cudaError_t error, const char* what) {
  if (error != cudaSuccess) throw DeviceError(std::string(what) + ": " + cudaGetErrorString(error));
}

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    cuda_check(cudaMalloc(&data_, bytes), "cudaMalloc");
    cuda_check(cudaMemset(data_, kFill, bytes), "cudaMemset");
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return data_; }
  std::vector<std::byte> download() const {
    std::vector<std::byte> host(bytes_);
    cuda_check(cudaMemcpy(host.data(), data_, bytes_, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return host;
  }

 private:
  void* data_ = nullptr;
  size_t bytes_;
};

CubeRecordHeader header_of(const std::vector<std::byte>& buffer) {
  CubeRecordHeader header;
  std::memcpy(&header, buffer.data(), sizeof header);
  return header;
}

std::string header_text(const CubeRecordHeader& h) {
  return "count " + std::to_string(h.count) + " needed " + std::to_string(h.needed) + " origin (" +
         std::to_string(h.origin[0]) + ", " + std::to_string(h.origin[1]) + ", " + std::to_string(h.origin[2]) + ") gamma " +
         std::to_string(h.gamma) + " iso " + std::to_string(h.iso) + " reserved " + std::to_string(h.reserved);
}

// Where two buffers first differ, in the layout's terms; empty when equal.
std::string first_difference(const std::vector<std::byte>& cpu, const std::vector<std::byte>& gpu) {
  for (size_t i = 0; i < cpu.size(); ++i) {
    if (cpu[i] == gpu[i]) continue;
    std::string where = i < kCubeRecordsOffset ? "header byte " + std::to_string(i)
                                               : "record " + std::to_string((i - kCubeRecordsOffset) / sizeof(CubeRecord)) +
                                                     " byte " + std::to_string((i - kCubeRecordsOffset) % sizeof(CubeRecord));
    return where + ": CPU " + std::to_string(int(cpu[i])) + ", GPU " + std::to_string(int(gpu[i])) + " (CPU header " +
           header_text(header_of(cpu)) + "; GPU header " + header_text(header_of(gpu)) + ")";
  }
  return {};
}

uint32_t needed_records(const SortedTileList& list, float iso) {
  CubeRecordSet set;
  generate_cube_records(list, set, iso);
  return uint32_t(set.records.size());
}

// Writes the records of `cpu_list` on the CPU and of `gpu` on the device, each into a buffer of
// `capacity` records, and checks the two buffers equal. `cpu_list` is what `gpu` holds.
// Returns the CPU's header.
CubeRecordHeader compare(const std::string& name, const SortedTileList& cpu_list, GpuSortedTileList& gpu, float iso,
                         uint32_t capacity) {
  const size_t bytes = cube_record_buffer_bytes(capacity);
  std::vector<std::byte> cpu(bytes, std::byte{kFill});
  write_cube_records(cpu_list, iso, cpu.data(), capacity, name.c_str());
  DeviceBuffer device(bytes);
  write_cube_records(gpu, iso, device.get(), capacity, name.c_str());
  const std::vector<std::byte> back = device.download();
  const std::string diff = first_difference(cpu, back);
  const CubeRecordHeader h = header_of(cpu);
  check(diff.empty(), name + " (" + std::to_string(cpu_list.size()) + " tiles, iso " + std::to_string(iso) + ", capacity " +
                          std::to_string(capacity) + "): " + std::to_string(h.count) + " of " + std::to_string(h.needed) +
                          " records, " + std::to_string(bytes) + " bytes " + (diff.empty() ? "equal" : "differ: " + diff));
  return h;
}

// The whole-list case: room for every record and a few more (whose bytes stay untouched).
CubeRecordHeader compare(const std::string& name, const SortedTileList& list, float iso = 0.0f) {
  GpuSortedTileList gpu(list);
  return compare(name, list, gpu, iso, needed_records(list, iso) + 3);
}

SortedTileList sdf_list(const DistanceFn& sdf, glm::ivec3 lo, glm::ivec3 hi, float gamma = 1.5f) {
  SortedTileList list(gamma);
  build_from_sdf(list, sdf, lo, hi);
  return list;
}

void spheres() {
  compare("sphere r 9", sdf_list(testing::sphere({16.3f, 15.8f, 16.1f}, 9.0f), glm::ivec3(0), glm::ivec3(32)));
  // Thousands of tiles: many blocks per pass, a scan over more than one CUB tile.
  compare("sphere r 40", sdf_list(testing::sphere({48.4f, 47.7f, 48.2f}, 40.0f), glm::ivec3(0), glm::ivec3(96)));
  // A wider band: missing tiles are further apart, signs taken from corners and edges.
  compare("two spheres, gamma 3",
          sdf_list([](glm::vec3 p) {
            return std::min(glm::length(p - glm::vec3(20.2f, 19.1f, 21.4f)) - 10.0f,
                            glm::length(p - glm::vec3(33.0f, 24.0f, 22.0f)) - 7.0f);
          }, glm::ivec3(0), glm::ivec3(48), 3.0f));
}

void iso_values() {
  const SortedTileList list = sdf_list(testing::sphere({16.3f, 15.8f, 16.1f}, 9.0f), glm::ivec3(0), glm::ivec3(32));
  const uint32_t at_zero = needed_records(list, 0.0f);
  const CubeRecordHeader outer = compare("sphere r 9 at iso 0.6", list, 0.6f);
  const CubeRecordHeader inner = compare("sphere r 9 at iso -0.9", list, -0.9f);
  check(outer.needed > at_zero && inner.needed < at_zero,
        "iso moves the surface: " + std::to_string(inner.needed) + " < " + std::to_string(at_zero) + " < " +
            std::to_string(outer.needed) + " records");
  GpuSortedTileList gpu(list);
  DeviceBuffer device(cube_record_buffer_bytes(4));
  bool cpu_threw = false, gpu_threw = false;
  std::vector<std::byte> cpu(cube_record_buffer_bytes(4));
  try {
    write_cube_records(list, 1.5f, cpu.data(), 4, "sphere");
  } catch (const InputError&) {
    cpu_threw = true;
  }
  try {
    write_cube_records(gpu, -1.5f, device.get(), 4, "sphere");
  } catch (const InputError& e) {
    gpu_threw = std::string(e.what()).find("band") != std::string::npos;
  }
  check(cpu_threw && gpu_threw, "iso values at ±gamma are InputErrors on both backends");
}

void meshes() {
  const TriangleMesh ball = test::icosphere(3, 1.0f);
  const VoxelFrame ball_frame = fit_frame(ball, 40, 4, "icosphere");
  SortedTileList ball_list(1.5f);
  build_from_mesh(ball_list, ball, ball_frame, "icosphere");
  compare("icosphere mesh level set", ball_list);
  const TriangleMesh cube = test::unit_cube();
  const VoxelFrame cube_frame = fit_frame(cube, 21, 3, "cube");
  SortedTileList cube_list(1.5f);
  build_from_mesh(cube_list, cube, cube_frame, "cube");
  compare("cube mesh level set (edges, corners)", cube_list);
}

// Tile coordinates cannot be negative (keys), so the band's own edges are the ends of the key
// range: at tile 0 the origin is voxel -1 and the missing neighbours lie at negative
// coordinates, at kMaxTile they lie beyond what a key holds; neither may be searched for.
void key_range_ends() {
  compare("sphere cut by tile 0 (origin -1, neighbours at negative tiles)",
          sdf_list(testing::sphere({2.3f, 1.6f, 3.1f}, 8.0f), glm::ivec3(0), glm::ivec3(16)));
  const glm::ivec3 top((kMaxTile.x + 1) * kTileSide, (kMaxTile.y + 1) * kTileSide, (kMaxTile.z + 1) * kTileSide);
  compare("sphere cut by the last tile of every axis",
          sdf_list(testing::sphere(glm::vec3(top) - glm::vec3(3.3f, 2.6f, 4.1f), 8.0f), top - 16, top));
}

// Tiles scattered at random over boxes of tile coordinates, with random values: unlike a level
// set's closed band, the tiles around a missing one disagree about its sign, so only the exact
// order of the missing-tile rule (out to two tiles away), the ownership rule and the tie rule at
// iso make the bytes equal.
struct TileBox {
  TileCoord lo, hi;  // inclusive
};

SortedTileList scattered_tiles(uint32_t seed, const std::vector<TileBox>& boxes, float density) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<TileKey> keys;
  for (const TileBox& b : boxes)
    for (int z = b.lo.z; z <= b.hi.z; ++z)
      for (int y = b.lo.y; y <= b.hi.y; ++y)
        for (int x = b.lo.x; x <= b.hi.x; ++x)
          if (unit(random) < density) keys.push_back(key_of({x, y, z}));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  SortedTileList list(1.5f);
  list.insert(keys, 1.5f);
  const float specials[] = {0.0f, -0.0f, 1.5f, -1.5f, 0.25f};
  for (const TileEntry& e : list.active()) {
    // Some tiles all one sign, so that border flags are all set or all clear.
    const int kind = int(unit(random) * 4);
    float values[kTileVoxels];
    for (int v = 0; v < kTileVoxels; ++v) {
      float value = (unit(random) * 2.0f - 1.0f) * 2.0f;
      if (kind == 1) value = -std::abs(value);
      if (kind == 2) value = std::abs(value);
      if (unit(random) < 0.1f) value = specials[int(unit(random) * 5) % 5];
      values[v] = std::clamp(value, -1.5f, 1.5f);
    }
    list.write(e.id, values);
    list.update_flags(e.id);
  }
  return list;
}

void scattered() {
  const std::vector<TileBox> block{{{0, 0, 0}, {8, 8, 8}}};
  for (const auto& [seed, density] : {std::pair{1u, 0.2f}, std::pair{2u, 0.45f}, std::pair{3u, 0.7f}}) {
    const SortedTileList list = scattered_tiles(seed, block, density);
    compare("scattered tiles, seed " + std::to_string(seed) + ", density " + std::to_string(density), list);
    compare("scattered tiles, seed " + std::to_string(seed) + ", iso 0.25", list, 0.25f);
  }
  // Both ends of every axis at once: a neighbour beyond the key range, taken for a key, would
  // alias a tile that is there (x = 2048 reads as the next y, x = -1 as the last key), so only
  // tiles that a key holds may be searched for.
  const int m = kMaxTile.x, my = kMaxTile.y, mz = kMaxTile.z;
  const std::vector<TileBox> ends{{{0, 0, 0}, {2, 2, 2}},           {{m - 2, 0, 0}, {m, 2, 2}},
                                  {{0, my - 2, 0}, {2, my, 2}},     {{0, 0, mz - 2}, {2, 2, mz}},
                                  {{m - 2, my - 2, mz - 2}, {m, my, mz}}, {{0, my - 2, mz - 2}, {2, my, mz}}};
  compare("scattered tiles at both ends of the key range", scattered_tiles(4, ends, 0.6f));
}

void empty_and_overflow() {
  const SortedTileList empty(1.5f);
  const CubeRecordHeader e = compare("empty list", empty, 0.25f);
  check(e.count == 0 && e.needed == 0 && e.origin[0] == 0 && e.gamma == 1.5f && e.iso == 0.25f,
        "an empty list's header: " + header_text(e));

  const SortedTileList list = sdf_list(testing::sphere({16.3f, 15.8f, 16.1f}, 9.0f), glm::ivec3(0), glm::ivec3(32));
  const uint32_t needed = needed_records(list, 0.0f);
  GpuSortedTileList gpu(list);
  for (const uint32_t capacity : {needed / 3, 1u, 0u, needed}) {
    const CubeRecordHeader h = compare("sphere r 9, room for " + std::to_string(capacity), list, gpu, 0.0f, capacity);
    check(h.count == capacity && h.needed == needed && h.reserved == 0,
          "capacity " + std::to_string(capacity) + ": count is the capacity, needed all " + std::to_string(needed));
  }
}

// Evolution on both backends, then the records of each list: the GPU's from its own list must be
// the CPU's records of that list downloaded; and the CPU-evolved list's records must match
// too wherever the two evolutions agree to the bit (everywhere on the CPU execution layer; a
// GPU's sin/cos may move a value by an ulp, see levelset_cuda_tests.cpp).
void evolved(const std::string& name, SortedTileList cpu, const GpuEvolutionParams& params, int steps, float max_dt) {
  GpuSortedTileList gpu(cpu);
  LevelSetEvolution cpu_evolution(to_cpu_params(params));
  GpuLevelSetEvolution gpu_evolution(params);
  double t = 0;
  for (int step = 0; step < steps; ++step) {
    const float dt = cpu_evolution.step(cpu, float(t), max_dt);
    gpu_evolution.step(gpu, float(t), max_dt);  // the same dt (levelset_cuda_tests checks it)
    t += dt;
  }
  const SortedTileList back = gpu.download();
  compare(name + ", GPU list", back, gpu, 0.0f, needed_records(back, 0.0f) + 3);

  size_t unequal = 0;
  bool same_structure = back.size() == cpu.size();
  for (size_t i = 0; same_structure && i < cpu.size(); ++i) {
    const TileEntry a = cpu.active()[i], b = back.active()[i];
    same_structure = a.key == b.key && a.id == b.id;
    for (int v = 0; same_structure && v < kTileVoxels; ++v) unequal += cpu.value(a.id, v) != back.value(b.id, v);
  }
  const uint32_t capacity = needed_records(cpu, 0.0f) + 3;
  std::vector<std::byte> cpu_buffer(cube_record_buffer_bytes(capacity), std::byte{kFill});
  write_cube_records(cpu, 0.0f, cpu_buffer.data(), capacity, name.c_str());
  DeviceBuffer device(cpu_buffer.size());
  write_cube_records(gpu, 0.0f, device.get(), capacity, name.c_str());
  const std::string diff = first_difference(cpu_buffer, device.download());
#if MENISCUS_CUDA_ON_CPU
  const bool agree = same_structure && unequal == 0 && diff.empty();  // one libm: the evolutions are identical
#else
  const bool agree = same_structure && (diff.empty() || unequal > 0);
#endif
  check(agree,
        name + ": " + std::to_string(steps) + " steps on each backend, " + std::to_string(cpu.size()) + " tiles, " +
            std::to_string(unequal) + " values not bit-equal; records of the CPU-evolved list " +
            (diff.empty() ? "equal" : "differ (" + diff + ")"));

  // The records borrow tile management's scratch: a step after them must manage as before.
  const float dt = cpu_evolution.step(cpu, float(t), max_dt);
  gpu_evolution.step(gpu, float(t), max_dt);
  const SortedTileList after = gpu.download();
  bool same = after.size() == cpu.size() && after.free_stack() == cpu.free_stack();
  float largest = 0;
  for (size_t i = 0; same && i < cpu.size(); ++i) {
    const TileEntry a = cpu.active()[i], b = after.active()[i];
    same = a.key == b.key && a.id == b.id && cpu.border(a.id) == after.border(b.id);
    for (int v = 0; same && v < kTileVoxels; ++v) largest = std::max(largest, std::abs(cpu.value(a.id, v) - after.value(b.id, v)));
  }
  check(same && largest <= 1e-5f, name + ": a step after the records (dt " + std::to_string(dt) +
                                      ") leaves the same lists on both backends, values within " + std::to_string(largest));
}

// The device call queues its work and returns: with the stream held by a host function until
// the call has returned, a call that waited for the device (a read-back, a synchronisation)
// would stall until the gate gave up.
void returns_without_waiting() {
  struct Gate {
    std::atomic<bool> open{false};
    std::atomic<bool> gave_up{false};
  };
  const SortedTileList list = sdf_list(testing::sphere({16.3f, 15.8f, 16.1f}, 9.0f), glm::ivec3(0), glm::ivec3(32));
  GpuSortedTileList gpu(list);
  const uint32_t capacity = needed_records(list, 0.0f);
  DeviceBuffer device(cube_record_buffer_bytes(capacity));
  write_cube_records(gpu, 0.0f, device.get(), capacity);  // sizes the scratch: growth may wait, once
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  cuda_check(cudaMemset(device.get(), kFill, cube_record_buffer_bytes(capacity)), "cudaMemset");

  Gate gate;
  const auto hold = [](void* data) {
    auto* g = static_cast<Gate*>(data);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!g->open.load() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    g->gave_up = !g->open.load();
  };
  cuda_check(cudaLaunchHostFunc(nullptr, hold, &gate), "cudaLaunchHostFunc");
  write_cube_records(gpu, 0.0f, device.get(), capacity);
  gate.open = true;
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::vector<std::byte> cpu(cube_record_buffer_bytes(capacity), std::byte{kFill});
  write_cube_records(list, 0.0f, cpu.data(), capacity);
  const std::string diff = first_difference(cpu, device.download());
  check(!gate.gave_up && diff.empty(),
        std::string("write_cube_records returned while the stream was held, and its records are the CPU's") +
            (gate.gave_up ? " (it waited for the device)" : "") + (diff.empty() ? "" : ": " + diff));
}

#if MENISCUS_LEVELSET_WIDE_KEYS
// Only wide keys hold a band wider than 16-bit positions: the CPU throws, the device flags it.
void too_wide() {
  SortedTileList wide(1.5f);
  wide.insert({key_of({0, 0, 0}), key_of({20000, 0, 0})}, -0.5f);
  GpuSortedTileList gpu(wide);
  DeviceBuffer device(cube_record_buffer_bytes(16));
  write_cube_records(gpu, 0.0f, device.get(), 16, "wide");
  const std::vector<std::byte> back = device.download();
  const CubeRecordHeader h = header_of(back);
  std::string message;
  try {
    check_cube_record_header(h, "wide");
  } catch (const InputError& e) {
    message = e.what();
  }
  bool untouched = true;
  for (size_t i = kCubeRecordsOffset; i < back.size(); ++i) untouched = untouched && back[i] == std::byte{kFill};
  check(h.reserved == kCubeRecordsTooWide && h.count == 0 && h.needed > 0 && untouched &&
            message.find("16-bit") != std::string::npos,
        "a band too wide for 16-bit positions: no records, the flag, and the CPU's error from the header (" + header_text(h) +
            ") " + message);
}
#endif

int run() {
  std::string why;
  if (!gpu_stl_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  spheres();
  iso_values();
  meshes();
  key_range_ends();
  scattered();
  empty_and_overflow();

  GpuEvolutionParams mcf;
  mcf.scheme = Scheme::kUpwind;
  mcf.alpha = 1.0f;
  mcf.normal_speed = 0.1f;
  mcf.rescaling_speed = true;
  evolved("sphere MCF", sdf_list(testing::sphere({16.3f, 15.8f, 16.1f}, 10.0f), glm::ivec3(0), glm::ivec3(32)), mcf, 8,
          std::numeric_limits<float>::infinity());
  GpuEvolutionParams enright;  // Enright's sphere in LeVeque's field, 32^3 (enright.cpp's set-up)
  enright.scheme = Scheme::kWeno5;
  enright.velocity.kind = FieldVelocity::Kind::kEnright;
  enright.velocity.resolution = 32;
  enright.velocity.period = 3.0f;
  const float n = 32;
  evolved("Enright 32^3 (WENO5/RK3)", sdf_list(testing::sphere(glm::vec3(0.35f * n - 0.5f), 0.15f * n), glm::ivec3(0), glm::ivec3(32)),
          enright, 12, 3.0f);

  returns_without_waiting();
#if MENISCUS_LEVELSET_WIDE_KEYS
  too_wide();
#endif
  return device_test::summary();
}
#else
int run() {
  std::printf("SKIPPED: the CUDA backend is not built (MENISCUS_CUDA=OFF or no nvcc)\n");
  return MENISCUS_SKIP_CODE;
}
#endif

}  // namespace
}  // namespace meniscus::sim::levelset

int main() { return meniscus::device_test::run_main(meniscus::sim::levelset::run); }
