// PLY (ASCII and binary) and OBJ reading, and every way a mesh file can be bad.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/core/error.h"
#include "sim/common/mesh_reader.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path temp_file(const std::string& name, const std::string& bytes) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-mesh-reader-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

const char* kAsciiHeader =
    "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
    "property float confidence\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n";

std::string binary_quad(bool truncate) {
  std::string s =
      "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty double x\nproperty double y\n"
      "property double z\nelement face 1\nproperty list uchar uint vertex_indices\nend_header\n";
  const double v[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  s.append(reinterpret_cast<const char*>(v), sizeof(v));
  s.push_back(char(4));
  const uint32_t f[4] = {0, 1, 2, 3};
  s.append(reinterpret_cast<const char*>(f), truncate ? 6 : sizeof(f));
  return s;
}

}  // namespace

TEST_CASE("ASCII PLY with extra properties", "[mesh][io]") {
  const TriangleMesh m = read_mesh(temp_file("a.ply", std::string(kAsciiHeader) +
                                                          "0 0 0 1\n1 0 0 1\n0 1 0 1\n0 0 1 1\n3 0 1 2\n3 0 2 3\n"));
  REQUIRE(m.vertices.size() == 4);
  REQUIRE(m.triangles.size() == 2);
  CHECK(m.vertices[3][2] == 1.0f);
  CHECK(m.triangles[1] == std::array<uint32_t, 3>{0, 2, 3});
}

TEST_CASE("binary PLY: doubles, a quad fan-triangulated", "[mesh][io]") {
  const TriangleMesh m = read_mesh(temp_file("b.ply", binary_quad(false)));
  REQUIRE(m.triangles.size() == 2);
  CHECK(m.vertices[2][1] == 1.0f);
  CHECK(m.triangles[1] == std::array<uint32_t, 3>{0, 2, 3});
}

TEST_CASE("OBJ with slashes and negative indices", "[mesh][io]") {
  const TriangleMesh m = read_mesh(temp_file("c.obj", "# quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvn 0 0 1\nf 1//1 2//1 -1//1\n"));
  REQUIRE(m.triangles.size() == 1);
  CHECK(m.triangles[0] == std::array<uint32_t, 3>{0, 1, 2});
}

TEST_CASE("bad mesh files name the file and the problem", "[mesh][io][input]") {
  CHECK_THROWS_WITH(read_mesh(temp_file("t.ply", binary_quad(true))), Contains("t.ply") && Contains("truncated"));
  CHECK_THROWS_WITH(read_mesh(temp_file("i.ply", std::string(kAsciiHeader) + "0 0 0 1\n1 0 0 1\n0 1 0 1\n0 0 1 1\n3 0 1 9\n3 0 2 3\n")),
                    Contains("i.ply") && Contains("face 0 refers to vertex 9 of 4"));
  CHECK_THROWS_WITH(read_mesh(temp_file("n.obj", "v 0 nan 0\n")), Contains("n.obj") && Contains("line 1"));
  for (const char* corner : {"3x", "2.5", "1e1", "x/1", "/1"})
    CHECK_THROWS_WITH(read_mesh(temp_file("b.obj", std::string("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 ") + corner + "\n")),
                      Contains("b.obj") && Contains("line 4") && Contains("bad face index"));
  CHECK_THROWS_WITH(read_mesh(temp_file("m.ply", "plx\n")), Contains("not a PLY file"));
  CHECK_THROWS_WITH(read_mesh(temp_file("f.ply", "ply\nformat binary_middle_endian 1.0\nend_header\n")),
                    Contains("unsupported PLY format"));
  CHECK_THROWS_WITH(read_mesh(temp_file("x.stl", "solid\n")), Contains("unsupported mesh format '.stl'"));
  CHECK_THROWS_WITH(read_mesh("/nonexistent/mesh.ply"), Contains("cannot open"));
}

}  // namespace meniscus::sim
