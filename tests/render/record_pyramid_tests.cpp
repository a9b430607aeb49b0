// The Vulkan record HistoPyramid (passes/surface/record_pyramid_gpu.h) against the CPU
// reference triangulation of the same cube records (sim/histopyramid/record_mesh.h), on
// lavapipe here: the same triangles, vertex for vertex, for a sphere's level set and for random
// records of every case at record counts that give one, two and several pyramid levels.
#include <catch2/catch.hpp>

#include <random>

#include "engine/core/context.h"
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

void check_against_cpu(const Context& context, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  const sim::IndexedMesh mesh = sim::extract_record_mesh(set, origin, voxel_size);
  const passes::RecordSoup gpu = passes::extract_records_on_gpu(context, set, origin, voxel_size);
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

}  // namespace meniscus
