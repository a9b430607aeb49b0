// .vdb round trip through OpenVDB, and the errors bad files give.
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>

#include "engine/core/error.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/vdb_io.h"

#ifdef MENISCUS_TEST_OPENVDB
#include <openvdb/openvdb.h>
#endif

namespace meniscus::sim::levelset {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path scratch_vdb(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-vdb-tests";
  std::filesystem::create_directories(dir);
  return dir / name;
}

}  // namespace

TEST_CASE(".vdb round trip is lossless", "[levelset][vdb]") {
  if (!vdb_supported()) {
    CHECK_THROWS_WITH(read_vdb(scratch_vdb("x.vdb")), Contains("built without OpenVDB"));
    FAIL("built without OpenVDB: the round trip cannot be tested (apt-get install libopenvdb-dev)");
  }
  SortedTileList list(1.5f);
  const glm::vec3 centre(22.3f, 20.6f, 21.2f);
  build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - 15.0f; }, {0, 0, 0}, {48, 48, 48});
  // Place it around the OpenVDB origin, as .vdb level sets usually are.
  const glm::ivec3 offset(-24, -24, -20);
  write_vdb(scratch_vdb("sphere.vdb"), list, offset, 0.5f);
  const LevelSetFile back = read_vdb(scratch_vdb("sphere.vdb"));
  CHECK(back.voxel_size == 0.5f);
  CHECK(back.list->gamma() == list.gamma());
  REQUIRE(back.list->check_invariants().empty());
  // Same voxels, same bits, wherever the reader put its tile origin.
  size_t compared = 0, different = 0;
  for (const TileEntry& e : list.active()) {
    const TileCoord t = coord_of(e.key);
    for (int k = 0; k < kTileVoxels; ++k) {
      const glm::ivec3 ours = glm::ivec3(t.x, t.y, t.z) * kTileSide + glm::ivec3(k % 4, k / 4 % 4, k / 16);
      const glm::ivec3 theirs = ours + offset - back.voxel_offset;
      const auto value = value_at(*back.list, theirs);
      REQUIRE(value.has_value());
      const float expected = list.value(e.id, k);
      different += std::memcmp(&expected, &*value, sizeof(float)) != 0;
      ++compared;
    }
  }
  CHECK(compared == list.size() * kTileVoxels);
  CHECK(different == 0);
  CHECK(back.list->size() == list.size());
}

TEST_CASE(".vdb voxels off the band keep their side, so a reader's shifted tiles see no false surface", "[levelset][vdb]") {
  if (!vdb_supported()) FAIL("built without OpenVDB");
  SortedTileList list(1.5f);
  const glm::vec3 centre(22.3f, 20.6f, 21.2f);
  const auto sdf = [&](glm::vec3 p) { return glm::length(p - centre) - 15.0f; };
  build_from_sdf(list, sdf, {0, 0, 0}, {48, 48, 48});
  // An offset off the multiples of 4: the reader's tiles straddle ours and hold voxels the file
  // stores only as background, inside the sphere as well as outside it.
  const glm::ivec3 offset(-25, -22, -19);
  write_vdb(scratch_vdb("shifted.vdb"), list, offset, 1.0f);
  const LevelSetFile back = read_vdb(scratch_vdb("shifted.vdb"));
  CHECK(back.list->size() > list.size());
  size_t wrong_side = 0;
  for (const TileEntry& e : back.list->active()) {
    const TileCoord t = coord_of(e.key);
    for (int k = 0; k < kTileVoxels; ++k) {
      const glm::ivec3 theirs = glm::ivec3(t.x, t.y, t.z) * kTileSide + glm::ivec3(k % 4, k / 4 % 4, k / 16);
      const float exact = sdf(glm::vec3(theirs + back.voxel_offset - offset));
      if (std::abs(exact) > 0.5f) wrong_side += (back.list->value(e.id, k) < 0) != (exact < 0);
    }
  }
  CHECK(wrong_side == 0);
}

TEST_CASE("bad .vdb input gives one clear error", "[levelset][vdb][errors]") {
  CHECK_THROWS_WITH(read_vdb(scratch_vdb("missing.vdb")), Contains("missing.vdb"));
  std::ofstream(scratch_vdb("garbage.vdb")) << "not a vdb file at all";
  CHECK_THROWS_AS(read_vdb(scratch_vdb("garbage.vdb")), InputError);
#ifdef MENISCUS_TEST_OPENVDB
  openvdb::initialize();
  auto fog = openvdb::FloatGrid::create(0.0f);
  fog->setGridClass(openvdb::GRID_FOG_VOLUME);
  fog->setName("density");
  fog->getAccessor().setValueOn(openvdb::Coord(1, 2, 3), 0.5f);
  openvdb::io::File(scratch_vdb("fog.vdb").string()).write({fog});
  CHECK_THROWS_WITH(read_vdb(scratch_vdb("fog.vdb")), Contains("fog.vdb") && Contains("not a level set"));
#endif
}

}  // namespace meniscus::sim::levelset
