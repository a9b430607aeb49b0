// Small inside parts and cavities (small_parts.h), spheres made outside (remove_spheres) and the
// side of tiles beyond the band (inside_beyond_band):
// a sphere with a speck beside it loses the speck and keeps itself, band and all.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/seed_spheres.h"
#include "sim/levelset/small_parts.h"

using namespace meniscus::sim::levelset;

TEST_CASE("small parts: a speck beside a sphere goes, the sphere and its band stay", "[levelset][small_parts]") {
  const glm::vec3 centre(40.0f), speck(40.0f, 40.0f, 62.3f);
  const auto sdf = [&](glm::vec3 p) {
    return std::min(glm::length(p - centre) - 14.0f, glm::length(p - speck) - 0.8f);
  };
  SortedTileList list(1.5f);
  build_from_sdf(list, sdf, glm::ivec3(12), glm::ivec3(68));
  REQUIRE(value_at(list, glm::ivec3(40, 40, 62)).value_or(1.0f) < 0.0f);
  SortedTileList sphere(1.5f);
  build_from_sdf(
      sphere, [&](glm::vec3 p) { return glm::length(p - centre) - 14.0f; }, glm::ivec3(12), glm::ivec3(68));

  // The sphere's inside reaches tiles beyond the band: never a small part, however small the bound.
  const size_t removed = remove_small_parts(list, 64);
  CHECK(removed > 0);
  CHECK(removed < 64);
  CHECK(value_at(list, glm::ivec3(40, 40, 62)).value_or(1.0f) > 0.0f);
  for (int z = 58; z <= 66; ++z) CHECK(value_at(list, glm::ivec3(40, 40, z)).value_or(1.5f) == 1.5f);
  // The sphere's band is the sphere's alone, value for value.
  size_t compared = 0;
  for (const TileEntry& e : sphere.active()) {
    const auto at = list.find(e.key);
    REQUIRE(at);
    for (int v = 0; v < kTileVoxels; ++v) compared += list.value(list.active()[*at].id, v) == sphere.value(e.id, v);
  }
  CHECK(compared == sphere.size() * kTileVoxels);
  CHECK(mean_crossing_distance(list, centre) == mean_crossing_distance(sphere, centre));
  CHECK(list.check_invariants().empty());
  CHECK(remove_small_parts(list, 1 << 20) == 0);
}

TEST_CASE("small parts: a part at the bound stays, one voxel under it goes", "[levelset][small_parts]") {
  const glm::vec3 centre(20.3f, 21.1f, 19.7f);
  SortedTileList list(1.5f);
  build_from_sdf(
      list, [&](glm::vec3 p) { return glm::length(p - centre) - 2.2f; }, glm::ivec3(8), glm::ivec3(32));
  size_t inside = 0;
  for (const TileEntry& e : list.active())
    for (int v = 0; v < kTileVoxels; ++v) inside += list.value(e.id, v) < 0.0f;
  REQUIRE(inside > 8);
  SortedTileList kept = list;
  CHECK(remove_small_parts(kept, inside) == 0);
  CHECK(remove_small_parts(list, inside + 1) == inside);
}

TEST_CASE("small holes: a cavity inside a sphere goes, the sphere and its band stay", "[levelset][small_parts]") {
  const glm::vec3 centre(40.0f), cavity(41.2f, 39.6f, 44.3f);
  const float radius = 14.0f;
  SortedTileList list(1.5f);
  build_from_sdf(
      list, [&](glm::vec3 p) { return std::max(glm::length(p - centre) - radius, 0.9f - glm::length(p - cavity)); },
      glm::ivec3(12), glm::ivec3(68));
  REQUIRE(value_at(list, glm::ivec3(41, 40, 44)).value_or(-1.0f) > 0.0f);
  SortedTileList sphere(1.5f);
  build_from_sdf(
      sphere, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, glm::ivec3(12), glm::ivec3(68));

  // The outside around the sphere reaches tiles beyond the band: never a small hole.
  const size_t filled = remove_small_holes(list, 64);
  CHECK(filled > 0);
  CHECK(filled < 64);
  CHECK(value_at(list, glm::ivec3(41, 40, 44)).value_or(-1.5f) == -1.5f);
  CHECK(remove_small_parts(list, 64) == 0);  // the inside is one region, anchored
  // The sphere's band is the sphere's, value for value; what is left of the cavity's is inside.
  size_t compared = 0, inside = 0, others = 0;
  for (const TileEntry& e : list.active()) {
    const auto at = sphere.find(e.key);
    for (int v = 0; v < kTileVoxels; ++v) {
      if (at)
        compared += list.value(e.id, v) == sphere.value(sphere.active()[*at].id, v);
      else
        inside += list.value(e.id, v) < 0.0f, ++others;
    }
  }
  CHECK(compared == sphere.size() * kTileVoxels);
  CHECK(inside == others);
  CHECK(mean_crossing_distance(list, centre) == mean_crossing_distance(sphere, centre));
  CHECK(list.check_invariants().empty());
  CHECK(remove_small_holes(list, 1 << 20) == 0);
}

TEST_CASE("remove_spheres: a ball made outside deep inside a sphere, its tiles created", "[levelset][small_parts]") {
  const glm::vec3 centre(40.0f);
  SortedTileList list(1.5f);
  build_from_sdf(
      list, [&](glm::vec3 p) { return glm::length(p - centre) - 14.0f; }, glm::ivec3(12), glm::ivec3(68));
  REQUIRE_FALSE(value_at(list, glm::ivec3(40)).has_value());  // beyond the band, inside
  const float on_band = *value_at(list, glm::ivec3(40, 40, 53));
  const SeedSphere cavity{centre, 3.0f};
  remove_spheres(list, std::span(&cavity, 1), "test");
  CHECK(value_at(list, glm::ivec3(40)).value_or(0.0f) == 1.5f);                   // clamped at +γ
  CHECK(value_at(list, glm::ivec3(42, 40, 40)).value_or(0.0f) == Approx(1.0f));   // 3 − 2
  CHECK(value_at(list, glm::ivec3(44, 40, 40)).value_or(0.0f) == Approx(-1.0f));  // the sphere's inside again
  CHECK(value_at(list, glm::ivec3(40, 40, 53)).value_or(0.0f) == on_band);
  CHECK(list.check_invariants().empty());
  CHECK(remove_small_holes(list, 1000) > 0);  // and a cavity that small is filled
  CHECK(value_at(list, glm::ivec3(40)).value_or(-1.5f) == -1.5f);
}
