// .vdb files from elsewhere (issue 18): a corrupt file must not take the process down, a level
// set that is one huge active tile sheet is refused by the policy instead of hanging, and voxel
// sizes OpenVDB cannot hold are named instead of its anonymous ArithmeticError.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <iterator>

#include "engine/core/error.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/vdb_io.h"

#ifdef MENISCUS_TEST_OPENVDB
#include <openvdb/openvdb.h>
#endif

namespace meniscus::sim::levelset {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path hostile_vdb(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-hostile-vdb-tests";
  std::filesystem::create_directories(dir);
  return dir / name;
}

std::filesystem::path sphere_vdb() {
  SortedTileList list(1.5f);
  build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(10.3f)) - 6.0f; }, {0, 0, 0}, {24, 24, 24});
  write_vdb(hostile_vdb("sphere.vdb"), list, {-12, -12, -12}, 0.25f);
  return hostile_vdb("sphere.vdb");
}

}  // namespace

TEST_CASE("mutated and truncated .vdb files give an InputError naming the file, never a crash",
          "[levelset][vdb][hostile]") {
  if (!vdb_supported()) FAIL("built without OpenVDB");
  std::ifstream in(sphere_vdb(), std::ios::binary);
  const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(original.size() > 1000);
  // Deterministic mutations over the whole file: header, metadata, topology and blosc-packed
  // buffers; and truncations. Each read forks a checking child first.
  uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto next = [&] { return (state = state * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  int clean_errors = 0, successes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int trial = 0; trial < 60; ++trial) {
    std::string bytes = original;
    if (trial % 6 == 5) {
      bytes.resize(next() % bytes.size());
    } else {
      for (int flips = 1 + int(next() % 4); flips > 0; --flips) bytes[next() % bytes.size()] = char(next());
    }
    const auto file = hostile_vdb("mutated.vdb");
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    try {
      const LevelSetFile read = read_vdb(file);
      CHECK(read.list->check_invariants().empty());
      ++successes;
    } catch (const InputError& error) {
      CHECK_THAT(error.what(), Contains("mutated.vdb: "));
      ++clean_errors;
    }
  }
  CHECK(clean_errors + successes == 60);
  CHECK(clean_errors > 0);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
}

TEST_CASE("a .vdb that is not a regular file, or whose name is too long, is refused", "[levelset][vdb][hostile]") {
  const auto link = hostile_vdb("zero.vdb");
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);
  CHECK_THROWS_WITH(read_vdb(link), Contains("zero.vdb: .vdb level set is not a regular file"));
  CHECK_THROWS_WITH(read_vdb("/tmp/" + std::string(5000, 'z') + ".vdb"), Contains("File name too long"));
}

TEST_CASE("a zero, tiny or NaN voxel size is named, not OpenVDB's ArithmeticError", "[levelset][vdb][hostile]") {
  if (!vdb_supported()) FAIL("built without OpenVDB");
  SortedTileList list(1.5f);
  build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(6.0f)) - 3.0f; }, {0, 0, 0}, {12, 12, 12});
  for (float size : {0.0f, 1e-30f, std::numeric_limits<float>::quiet_NaN(), -1.0f})
    CHECK_THROWS_WITH(write_vdb(hostile_vdb("tiny.vdb"), list, {0, 0, 0}, size),
                      Contains("tiny.vdb: voxel size") && Contains("that a .vdb transform can hold"));
}

#ifdef MENISCUS_TEST_OPENVDB
TEST_CASE("a .vdb level set that is one huge active tile sheet is refused by the policy", "[levelset][vdb][hostile]") {
  openvdb::initialize();
  auto sheet = openvdb::FloatGrid::create(1.5f);
  sheet->setGridClass(openvdb::GRID_LEVEL_SET);
  // 32 x 32 active tiles of 128³ voxels: 4096 x 4096 x 128 voxels in a file of a few KB.
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) sheet->tree().addTile(2, openvdb::Coord(x * 128, y * 128, 0), -0.5f, true);
  openvdb::io::File(hostile_vdb("sheet.vdb").string()).write({sheet});
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(read_vdb(hostile_vdb("sheet.vdb")), Contains("sheet.vdb: field 'active voxels': declares") &&
                                                            Contains("over the limit of 268435456 active voxels"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("an active tile under the limit becomes the tiles it covers", "[levelset][vdb][hostile]") {
  openvdb::initialize();
  auto grid = openvdb::FloatGrid::create(1.5f);
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->tree().addTile(2, openvdb::Coord(0, 0, 0), -0.5f, true);  // level 2: 128³ voxels
  grid->tree().setValueOn(openvdb::Coord(200, 3, 3), 0.25f);      // and one leaf voxel
  openvdb::io::File(hostile_vdb("tile.vdb").string()).write({grid});
  const LevelSetFile read = read_vdb(hostile_vdb("tile.vdb"));
  CHECK(read.voxel_offset == glm::ivec3(0));
  CHECK(read.list->size() == 32u * 32 * 32 + 1);
  CHECK(read.list->check_invariants().empty());
  const auto inside = value_at(*read.list, {127, 127, 127});
  REQUIRE(inside.has_value());
  CHECK(*inside == -0.5f);
  const auto leaf = value_at(*read.list, {200, 3, 3});
  REQUIRE(leaf.has_value());
  CHECK(*leaf == 0.25f);
}
#endif

}  // namespace meniscus::sim::levelset
