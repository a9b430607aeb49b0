// The Sorted Tile List's structure and tile management, on analytic surfaces.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <map>
#include <random>
#include <set>

#include "engine/core/error.h"
#include "sim/levelset/level_set_builder.h"
#include "tests/sim/levelset/levelset_test_helpers.h"

namespace meniscus::sim::levelset {
using testing::sphere;
using testing::uncovered_band_voxels;

TEST_CASE("a sphere's narrow band is covered by a sorted, consistent tile list", "[levelset][stl]") {
  SortedTileList list(1.5f, 8);  // small pool: building it must grow by reallocation
  const DistanceFn sdf = sphere({40.3f, 38.7f, 41.1f}, 20.0f);
  build_from_sdf(list, sdf, {0, 0, 0}, {84, 84, 84});
  INFO(list.check_invariants());
  CHECK(list.check_invariants().empty());
  CHECK(list.size() > 100);
  CHECK(list.capacity() >= list.size());
  CHECK(uncovered_band_voxels(list, sdf, {0, 0, 0}, {84, 84, 84}) == 0);
  // Values are clamped to the band and carry the distance where inside it.
  CHECK(sample(list, {60, 39, 41}) == Approx(std::clamp(sdf({60, 39, 41}), -1.5f, 1.5f)));
  CHECK(sample(list, {40, 39, 41}) == 1.5f);  // the centre holds no tile: reads as the fallback
}

TEST_CASE("find agrees with a set of keys", "[levelset][stl]") {
  SortedTileList list(1.5f);
  std::mt19937 rng(3);
  std::set<TileKey> keys;
  while (keys.size() < 500) keys.insert(key_of({int(rng() % 64), int(rng() % 64), int(rng() % 64)}));
  list.insert(std::vector<TileKey>(keys.begin(), keys.end()), 1.5f);
  CHECK(list.check_invariants().empty());
  for (int i = 0; i < 2000; ++i) {
    const TileKey probe = key_of({int(rng() % 64), int(rng() % 64), int(rng() % 64)});
    const auto at = list.find(probe);
    CHECK(at.has_value() == keys.count(probe) > 0);
    if (at) CHECK(list.active()[*at].key == probe);
  }
}

TEST_CASE("tile management follows a moving surface and keeps every invariant", "[levelset][stl][management]") {
  // The sphere moves 0.7 voxels per step (less than a tile, as a CFL-limited front does);
  // after each management step the band must still be covered, the list sorted, the pool
  // partitioned between the free stack and the active tiles.
  SortedTileList list(1.5f, 16);
  glm::vec3 centre(30.0f, 30.0f, 30.0f);
  build_from_sdf(list, sphere(centre, 12.0f), {0, 0, 0}, {96, 96, 96});
  uint32_t added = 0, removed = 0;
  for (int step = 0; step < 40; ++step) {
    centre += glm::vec3(0.7f, 0.35f, 0.5f);
    const TileStatus status = list.manage();
    added += status.added;
    removed += status.removed;
    CHECK(status.added + status.kept == list.size());
    resample(list, sphere(centre, 12.0f));
    INFO("step " << step << ": " << list.check_invariants());
    REQUIRE(list.check_invariants().empty());
    REQUIRE(uncovered_band_voxels(list, sphere(centre, 12.0f), {0, 0, 0}, {96, 96, 96}) == 0);
  }
  CHECK(added > 0);
  CHECK(removed > 0);
  // Tiles the sphere left behind were removed: the list stays the size of the band.
  SortedTileList fresh(1.5f);
  build_from_sdf(fresh, sphere(centre, 12.0f), {0, 0, 0}, {96, 96, 96});
  CHECK(list.size() <= fresh.size() * 2);
}

namespace {

// Tile management by brute force: the dilated set from a std::set of coordinates, each
// candidate's fate from a lookup of all 26 neighbours. Key -> kept (true) or created (false).
std::map<TileKey, bool> reference_management(const SortedTileList& list) {
  std::set<TileKey> dilated;
  for (const TileEntry& e : list.active()) {
    dilated.insert(e.key);
    const TileCoord c = coord_of(e.key);
    for (const TileCoord& o : neighbour_offsets())
      if (representable({c.x + o.x, c.y + o.y, c.z + o.z})) dilated.insert(key_of({c.x + o.x, c.y + o.y, c.z + o.z}));
  }
  std::map<TileKey, bool> next;
  for (const TileKey key : dilated) {
    const TileCoord c = coord_of(key);
    bool requested = false;
    for (int d = 0; d < 26; ++d) {
      const TileCoord o = neighbour_offsets()[d];  // the requester sits at c - o and looks along o
      const TileCoord from{c.x - o.x, c.y - o.y, c.z - o.z};
      if (!representable(from)) continue;
      if (const auto at = list.find(key_of(from))) requested |= (list.activity(list.active()[*at].id) & (1u << d)) != 0;
    }
    const auto here = list.find(key);
    if (here && (requested || (list.activity(list.active()[*here].id) & kSelfActive))) next[key] = true;
    else if (!here && requested) next[key] = false;
  }
  return next;
}

struct ListSnapshot {
  std::vector<TileEntry> active;
  std::vector<uint32_t> free;
  std::vector<float> values;
  friend bool operator==(const ListSnapshot& a, const ListSnapshot& b) {
    return a.free == b.free && a.values == b.values && a.active.size() == b.active.size() &&
           std::equal(a.active.begin(), a.active.end(), b.active.begin(),
                      [](const TileEntry& x, const TileEntry& y) { return x.key == y.key && x.id == y.id; });
  }
};

// A sphere with a bump, pushed across tile borders for `steps` management steps on `threads`.
ListSnapshot managed_sphere(int threads, int steps) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, size_t(threads));
  SortedTileList list(1.5f, 8);
  glm::vec3 centre(70.3f, 66.1f, 71.7f);
  build_from_sdf(list, sphere(centre, 50.0f), {0, 0, 0}, {160, 160, 160});
  for (int step = 0; step < steps; ++step) {
    centre += glm::vec3(0.9f, -0.4f, 0.6f);
    const std::map<TileKey, bool> expected = reference_management(list);
    list.manage();
    REQUIRE(list.size() == expected.size());
    for (const TileEntry& e : list.active()) REQUIRE(expected.count(e.key) == 1);
    resample(list, sphere(centre, 50.0f));
  }
  ListSnapshot snapshot{list.active(), list.free_stack(), {}};
  for (const TileEntry& e : list.active())
    for (int v = 0; v < kTileVoxels; ++v) snapshot.values.push_back(list.value(e.id, v));
  return snapshot;
}

}  // namespace

TEST_CASE("chunked tile management creates and removes exactly the brute-force dilation's tiles, identically on any thread count",
          "[levelset][stl][management]") {
  // Radius 50: about 8000 tiles, so the list splits into several chunks.
  const ListSnapshot one = managed_sphere(1, 6), two = managed_sphere(2, 6);
  CHECK(one.active.size() > 4096);
  CHECK(one == two);
}

TEST_CASE("slots are reused last-in first-out and the pool only grows when the stack is empty", "[levelset][stl]") {
  SortedTileList list(1.5f, 4);
  list.insert({key_of({1, 1, 1}), key_of({2, 1, 1})}, 1.5f);
  CHECK(list.capacity() == 4);
  list.insert({key_of({0, 2, 1}), key_of({1, 2, 1}), key_of({2, 2, 1})}, 1.5f);
  CHECK(list.capacity() == 8);  // doubled once
  CHECK(list.check_invariants().empty());
  // All tiles are outside the band: management frees every one of them.
  const TileStatus status = list.manage();
  CHECK(status.removed == 5);
  CHECK(list.size() == 0);
  CHECK(list.free_stack().size() == list.capacity());
  CHECK(list.check_invariants().empty());
}

#if !MENISCUS_LEVELSET_WIDE_KEYS  // wide_key_tests.cpp checks the 64-bit range
TEST_CASE("a domain beyond 32-bit tile keys is an error", "[levelset][errors]") {
  SortedTileList list(1.5f);
  CHECK_THROWS_AS(build_from_sdf(list, sphere({0, 0, 0}, 5), {0, 0, 0}, {9000, 16, 16}), InputError);
  CHECK_THROWS_AS(build_from_sdf(list, sphere({0, 0, 0}, 5), {-8, 0, 0}, {16, 16, 16}), InputError);
}
#endif

}  // namespace meniscus::sim::levelset
