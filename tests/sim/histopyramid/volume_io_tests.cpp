// Real volumes from ../shared/data, and the errors bad volume files give.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "engine/core/data_files.h"
#include "engine/core/error.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/volume_io.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;


std::filesystem::path temp(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-volume-tests";
  std::filesystem::create_directories(dir);
  return dir / name;
}

}  // namespace

TEST_CASE("the CT head (NRRD, one file per slice) loads and gives a closed-ish skin surface", "[volume][data]") {
  const auto path = find_data_file("vtk-data/headsq/quarter.nhdr");
  const Volume v = load_volume(path.string());
  CHECK(v.dims == glm::uvec3(64, 64, 93));
  CHECK(v.spacing.x == Approx(3.2f));
  CHECK(v.spacing.z == Approx(1.5f));
  const glm::vec2 range = v.range();
  CHECK(range.x >= 0.0f);
  CHECK(range.y > 1000.0f);
  McStats stats;
  const IndexedMesh skin = MarchingCubes().extract(v, 500.0f, &stats);
  CHECK(stats.cells == 63ull * 63 * 92);
  CHECK(skin.triangles.size() > 10000);
  CHECK(edge_census(skin).non_manifold == 0);
}

TEST_CASE("the iron protein (legacy VTK, big-endian binary) loads", "[volume][data]") {
  const auto path = find_data_file("vtk-data/ironProt.vtk");
  const Volume v = load_volume(path.string());
  CHECK(v.dims == glm::uvec3(68, 68, 68));
  CHECK(v.range().y <= 255.0f);
  const IndexedMesh mesh = MarchingCubes().extract(v, 128.0f);
  CHECK_FALSE(mesh.triangles.empty());
}

TEST_CASE("bad volume files give one clear error", "[volume][errors]") {
  SECTION("truncated data") {
    std::ofstream(temp("short.raw"), std::ios::binary) << std::string(100, '\0');
    std::ofstream(temp("short.nhdr")) << "NRRD0004\ndimension: 3\nsizes: 8 8 8\ntype: uchar\nencoding: raw\ndata file: short.raw\n";
    CHECK_THROWS_WITH(load_volume(temp("short.nhdr").string()), Contains("short.nhdr") && Contains("truncated"));
  }
  SECTION("wrong dimensions for a raw file") {
    std::ofstream(temp("cube.raw"), std::ios::binary) << std::string(8 * 8 * 8, '\1');
    CHECK_THROWS_WITH(load_raw(temp("cube.raw"), {8, 8, 4}, "uint8"), Contains("cube.raw") && Contains("wrong dimensions"));
    CHECK_THROWS_WITH(load_raw(temp("cube.raw"), {8, 8, 16}, "uint8"), Contains("truncated"));
  }
  SECTION("unsupported type") {
    std::ofstream(temp("type.nhdr")) << "NRRD0004\ndimension: 3\nsizes: 2 2 2\ntype: double\nencoding: raw\ndata file: cube.raw\n";
    CHECK_THROWS_WITH(load_volume(temp("type.nhdr").string()), Contains("type.nhdr") && Contains("unsupported sample type 'double'"));
  }
  SECTION("unsupported encoding and dimension") {
    std::ofstream(temp("gz.nhdr")) << "NRRD0004\ndimension: 3\nsizes: 2 2 2\ntype: uchar\nencoding: gzip\ndata file: cube.raw\n";
    CHECK_THROWS_WITH(load_volume(temp("gz.nhdr").string()), Contains("field 'encoding'"));
    std::ofstream(temp("2d.nhdr")) << "NRRD0004\ndimension: 2\nsizes: 2 2\ntype: uchar\nencoding: raw\n";
    CHECK_THROWS_WITH(load_volume(temp("2d.nhdr").string()), Contains("field 'dimension'"));
  }
  SECTION("not a volume at all") {
    std::ofstream(temp("text.vtk")) << "hello\n";
    CHECK_THROWS_WITH(load_volume(temp("text.vtk").string()), Contains("text.vtk") && Contains("not a legacy VTK file"));
    CHECK_THROWS_WITH(load_volume("/nonexistent.nrrd"), Contains("no such file"));
    CHECK_THROWS_WITH(load_volume("cayley:abc"), Contains("cayley:128"));
    CHECK_THROWS_AS(load_volume("teapot:64"), InputError);
  }
}

}  // namespace meniscus::sim
