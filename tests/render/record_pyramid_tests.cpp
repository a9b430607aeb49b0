// The Vulkan record HistoPyramid (passes/surface/record_pyramid_gpu.h) against the CPU
// reference triangulation of the same cube records (sim/histopyramid/record_mesh.h), on
// lavapipe here: the same triangles, vertex for vertex, for a sphere's level set and for random
// records of every case at record counts that give one, two and several pyramid levels; both
// uploaded by the host and read from a record buffer (cube_record_buffer.h) whose count only
// its header holds, as the CUDA level set leaves it.
#include <catch2/catch.hpp>

#include <cstring>
#include <optional>
#include <random>
#include <utility>

#include "engine/core/context.h"
#include "engine/interop/shared_buffer.h"
#include "passes/surface/record_extraction.h"
#include "sim/histopyramid/mc_tables.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/level_set_builder.h"

namespace meniscus {
namespace {

// Records with random codes and so cases (not a surface: every case appears), two voxels apart
// so that no two share an edge (the CPU mesh would merge their vertices).
sim::CubeRecordSet random_records(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  sim::CubeRecordSet set;
  for (size_t i = 0; i < count; ++i) {
    int8_t codes[8];
    for (int8_t& c : codes) c = int8_t(int(rng() % 256) - 128);
    const uint32_t cell = uint32_t(2 * i);
    set.records.push_back(sim::make_cube_record({cell % 65536, 2 * (cell / 65536 % 1000), 2 * (cell / 65536 / 1000)}, codes));
  }
  return set;
}

// `gpu` drew `set`: the same triangles as the CPU reference, in the same order.
void check_soup(const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size, const passes::RecordSoup& gpu) {
  const sim::IndexedMesh mesh = sim::extract_record_mesh(set, origin, voxel_size);
  INFO(set.records.size() << " records");
  REQUIRE(gpu.positions.size() == 3 * mesh.triangles.size());
  CHECK(mesh.triangles.size() == sim::record_triangle_count(set));
  // Output key k is soup corner k of the CPU mesh: records in order, each case's corners in order.
  size_t misplaced = 0, wrong_record = 0, flipped = 0;
  uint32_t record = 0, left = 0;
  for (size_t k = 0; k < gpu.positions.size(); ++k) {
    while (left == 0) left = 3u * sim::mc::cases()[set.records[record++].mc_case].triangles;
    --left;
    const uint32_t v = mesh.triangles[k / 3][int(k % 3)];
    // GLSL and C++ may round a + s * (b + t) differently in the last bit.
    misplaced += glm::distance(gpu.positions[k], mesh.positions[v]) > 1e-5f * (1.0f + glm::length(mesh.positions[v]));
    wrong_record += gpu.records[k] != record - 1;
    // The GPU normal is its own cell's gradient, the CPU's the sum over the vertex's cells.
    flipped += glm::dot(gpu.normals[k], mesh.normals[v]) < 0.0f;
  }
  CHECK(misplaced == 0);
  CHECK(wrong_record == 0);
  CHECK(flipped == 0);
}

void check_against_cpu(const Context& context, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  check_soup(set, origin, voxel_size, passes::extract_records_on_gpu(context, set, origin, voxel_size));
}

// A host-kind SharedBuffer with room for `capacity` records, as the CPU level set publishes
// into; its bytes start as noise, so that nothing past what a writer wrote reads as a record by
// chance of being zero.
class HostRecordBuffer {
 public:
  HostRecordBuffer(const Context& context, uint32_t capacity, uint32_t seed = 7)
      : capacity_(capacity),
        shared_(context, sim::cube_record_buffer_bytes(capacity), SharedMemory::Host, "test.records") {
    std::mt19937 rng(seed);
    for (VkDeviceSize i = 0; i < shared_.size(); ++i) bytes()[i] = std::byte(rng() & 0xFF);
  }
  std::byte* bytes() const { return static_cast<std::byte*>(shared_.host_pointer()); }
  sim::CubeRecordHeader header() const {
    sim::CubeRecordHeader h;
    std::memcpy(&h, bytes(), sizeof h);
    return h;
  }
  void set_header(const sim::CubeRecordHeader& h) const { std::memcpy(bytes(), &h, sizeof h); }
  // What a frame reading this buffer draws, with voxel (0, 0, 0) at `voxel0`; told a capacity
  // below the real one, it must not read past it.
  passes::RecordSoup extract(const Context& context, glm::vec3 voxel0, float voxel_size, std::optional<uint32_t> capacity = {}) const {
    return passes::extract_record_buffer_on_gpu(context, shared_.buffer(), shared_.size(), capacity.value_or(capacity_), voxel0,
                                                voxel_size);
  }

 private:
  uint32_t capacity_;
  SharedBuffer shared_;
};

// A sphere's level set far from voxel 0, so that its records' origin voxel is too.
sim::levelset::SortedTileList offset_sphere() {
  sim::levelset::SortedTileList list(1.5f);
  const glm::ivec3 low(200, 150, 40);
  const glm::vec3 centre = glm::vec3(low) + glm::vec3(34.5f, 33.2f, 35.8f);
  sim::levelset::build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - 30.0f; }, low, low + 72);
  return list;
}

// Where record position 0 lands for records whose origin voxel is `origin`.
glm::vec3 record_origin(glm::vec3 voxel0, float voxel_size, glm::ivec3 origin) { return voxel0 + glm::vec3(origin) * voxel_size; }

}  // namespace

TEST_CASE("record histopyramid: Vulkan matches the CPU reference for a sphere's level set", "[histopyramid][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  sim::levelset::SortedTileList list(1.5f);
  const glm::vec3 centre(34.5f, 33.2f, 35.8f);
  sim::levelset::build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - 30.0f; }, glm::ivec3(0),
                                glm::ivec3(72));
  sim::CubeRecordSet set;
  sim::levelset::generate_cube_records(list, set);
  check_against_cpu(context, set, glm::vec3(set.origin), 1.0f);
  // And placed in world units, as the level-set stage draws it.
  check_against_cpu(context, set, glm::vec3(-0.4f, 0.1f, 0.25f), 1.0f / 128.0f);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("record histopyramid: Vulkan matches the CPU reference at every pyramid depth", "[histopyramid][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  for (const size_t count : {1, 3, 4, 5, 16, 17, 1000, 70001}) check_against_cpu(context, random_records(count, uint32_t(count)), glm::vec3(0.0f), 1.0f);
  CHECK(passes::extract_records_on_gpu(context, sim::CubeRecordSet{}, glm::vec3(0.0f), 1.0f).positions.empty());
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("record histopyramid: a record buffer is drawn by its header as the CPU reference draws it", "[histopyramid][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  const sim::levelset::SortedTileList list = offset_sphere();
  const float iso = 0.3f;
  sim::CubeRecordSet set;
  sim::levelset::generate_cube_records(list, set, iso);
  const auto needed = uint32_t(set.records.size());
  REQUIRE(set.origin != glm::ivec3(0));
  // Room to spare, as a buffer grown ahead of the surface has: the levels cover the capacity.
  const HostRecordBuffer buffer(context, needed + 1000);
  sim::levelset::write_cube_records(list, iso, buffer.bytes(), needed + 1000);
  for (const auto& [voxel0, voxel_size] : {std::pair(glm::vec3(0.0f), 1.0f), std::pair(glm::vec3(-0.4f, 0.1f, 0.25f), 1.0f / 128.0f)}) {
    const passes::RecordSoup gpu = buffer.extract(context, voxel0, voxel_size);
    check_soup(set, record_origin(voxel0, voxel_size, set.origin), voxel_size, gpu);
    REQUIRE(gpu.header);
    CHECK(gpu.header->count == needed);
    CHECK(gpu.header->needed == needed);
    CHECK(glm::ivec3(gpu.header->origin[0], gpu.header->origin[1], gpu.header->origin[2]) == set.origin);
    CHECK(gpu.header->gamma == set.gamma);
  }
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("record histopyramid: a record buffer at every pyramid depth matches the CPU reference", "[histopyramid][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  const glm::vec3 voxel0(1.5f, -2.0f, 0.75f);
  for (const uint32_t count : {1u, 5u, 17u, 1000u, 70001u}) {
    sim::CubeRecordSet set = random_records(count, count);
    set.origin = glm::ivec3(-7, 300, 12);
    set.gamma = 0.8f;
    const uint32_t capacity = count + count / 2;  // levels deeper than the records need, for some counts
    const HostRecordBuffer buffer(context, capacity, count);
    buffer.set_header({count, count, {set.origin.x, set.origin.y, set.origin.z}, set.gamma, 0.0f, 0});
    std::memcpy(buffer.bytes() + sim::kCubeRecordsOffset, set.records.data(), count * sizeof(sim::CubeRecord));
    check_soup(set, record_origin(voxel0, 0.5f, set.origin), 0.5f, buffer.extract(context, voxel0, 0.5f));
  }
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("record histopyramid: a record buffer too small draws the records it holds and reads back what was needed", "[histopyramid][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  const sim::levelset::SortedTileList list = offset_sphere();
  sim::CubeRecordSet set;
  sim::levelset::generate_cube_records(list, set);
  const auto needed = uint32_t(set.records.size());
  // Not a multiple of four: the last pyramid texel spans records past the capacity.
  const uint32_t capacity = needed / 12 * 4 + 1;
  const HostRecordBuffer buffer(context, capacity);
  sim::levelset::write_cube_records(list, 0.0f, buffer.bytes(), capacity);
  REQUIRE(buffer.header().count == capacity);
  sim::CubeRecordSet fitted = set;
  fitted.records.resize(capacity);
  const passes::RecordSoup gpu = buffer.extract(context, glm::vec3(0.0f), 1.0f);
  check_soup(fitted, glm::vec3(set.origin), 1.0f, gpu);
  REQUIRE(gpu.header);
  CHECK(gpu.header->count == capacity);
  CHECK(gpu.header->needed == needed);

  // A header claiming more records than the capacity draws no more than the capacity, even with
  // valid records beyond it.
  const HostRecordBuffer roomy(context, needed);
  sim::levelset::write_cube_records(list, 0.0f, roomy.bytes(), needed);
  check_soup(fitted, glm::vec3(set.origin), 1.0f, roomy.extract(context, glm::vec3(0.0f), 1.0f, capacity));
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("record histopyramid: a record buffer whose header counts no record draws nothing", "[histopyramid][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  const sim::levelset::SortedTileList list = offset_sphere();
  sim::CubeRecordSet set;
  sim::levelset::generate_cube_records(list, set);
  const auto needed = uint32_t(set.records.size());

  // Every record written, then the count cleared: the records past it are not drawn.
  const HostRecordBuffer full(context, needed);
  sim::levelset::write_cube_records(list, 0.0f, full.bytes(), needed);
  sim::CubeRecordHeader cleared = full.header();
  cleared.count = 0;
  full.set_header(cleared);
  passes::RecordSoup gpu = full.extract(context, glm::vec3(0.0f), 1.0f);
  CHECK(gpu.positions.empty());
  REQUIRE(gpu.header);
  CHECK(gpu.header->count == 0);
  CHECK(gpu.header->needed == needed);

  // No room at all: only the header, which still says how many were needed.
  const HostRecordBuffer empty(context, 0);
  sim::levelset::write_cube_records(list, 0.0f, empty.bytes(), 0);
  gpu = empty.extract(context, glm::vec3(0.0f), 1.0f);
  CHECK(gpu.positions.empty());
  REQUIRE(gpu.header);
  CHECK(gpu.header->count == 0);
  CHECK(gpu.header->needed == needed);
  CHECK(context.validation_error_count() == 0);
}

}  // namespace meniscus
