// PLY and OBJ inputs that once hung, exhausted memory or failed without naming the file: each
// is fed exactly and must now give one InputError naming the file and the field, at once.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/core/error.h"
#include "sim/common/mesh_reader.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path write(const std::string& name, const std::string& bytes) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-hostile-mesh-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The message, within a second (a hang fails the test instead of stalling it).
std::string error_of(const std::filesystem::path& file) {
  const auto start = std::chrono::steady_clock::now();
  std::string message = "(no InputError)";
  try {
    read_mesh(file);
  } catch (const InputError& error) {
    message = error.what();
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  return message;
}

const std::string kPoint = "property float x\nproperty float y\nproperty float z\n";

}  // namespace

TEST_CASE("a PLY element with no properties and a count of -1 is refused, not looped over", "[input][ply]") {
  const auto file = write(
      "noprops.ply", "ply\nformat ascii 1.0\nelement vertex 1\n" + kPoint + "element junk -1\nend_header\n0 0 0\n");
  CHECK_THAT(error_of(file), Contains("noprops.ply: field 'element junk': expected a count (a non-negative integer), "
                                      "got '-1'"));
}

TEST_CASE("negative and 2^64-1 vertex counts are refused (once vector::_M_default_append)", "[input][ply]") {
  for (const char* count : {"-1", "-5", "18446744073709551615", "99999999999999999999999", "1e9", "0x10"}) {
    const auto file = write("count.ply", "ply\nformat binary_little_endian 1.0\nelement vertex " + std::string(count) +
                                             "\n" + kPoint + "end_header\n");
    CHECK_THAT(error_of(file), Contains("count.ply: field 'element vertex'"));
  }
}

TEST_CASE("an ASCII PLY declaring 1.5e9 vertices is refused by the policy before allocating", "[input][ply]") {
  const auto file =
      write("huge.ply", "ply\nformat ascii 1.0\nelement vertex 1500000000\n" + kPoint + "end_header\n0 0 0\n1 0 0\n");
  CHECK_THAT(error_of(file), Contains("huge.ply: field 'element vertex': declares 1500000000 vertices, over the limit "
                                      "of 268435456 vertices"));
}

TEST_CASE("declared counts the file's bytes cannot hold fail before allocating", "[input][ply]") {
  const auto binary = write("short.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 200000000\n" + kPoint +
                                             "end_header\n" + std::string(24, '\0'));
  CHECK_THAT(error_of(binary), Contains("short.ply: field 'element vertex': declares 200000000 items, but the 24 bytes "
                                        "after the header cannot hold them (truncated)"));
  const auto faces = write("faces.ply", "ply\nformat ascii 1.0\nelement vertex 3\n" + kPoint +
                                            "element face 100000000\nproperty list uchar int vertex_indices\n"
                                            "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
  CHECK_THAT(error_of(faces), Contains("faces.ply: field 'element face'") && Contains("(truncated)"));
}

TEST_CASE("list lengths and indices from the file are checked before use", "[input][ply]") {
  const std::string header = "ply\nformat ascii 1.0\nelement vertex 3\n" + kPoint +
                             "element face 1\nproperty list uint int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n";
  CHECK_THAT(error_of(write("list.ply", header + "4294967295 0 1 2\n")),
             Contains("list.ply: property 'vertex_indices': list length 4294967295") && Contains("[0, 1024]"));
  CHECK_THAT(error_of(write("negative_list.ply", header + "-3 0 1 2\n")), Contains("list length -3"));
  CHECK_THAT(error_of(write("index.ply", header + "3 0 1 1e300\n")), Contains("index.ply: face 0 refers to vertex -1"));
  const std::string huge = "ply\nformat ascii 1.0\nelement vertex 1\n" + kPoint + "end_header\n1e300 0 0\n";
  CHECK_THAT(error_of(write("coordinate.ply", huge)), Contains("coordinate.ply: vertex 0 has a non-finite coordinate"));
}

TEST_CASE("a mesh that is a device or has no end_header is refused", "[input][ply]") {
  const auto link = std::filesystem::temp_directory_path() / "meniscus-hostile-mesh-tests" / "zero.ply";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);
  CHECK_THAT(error_of(link), Contains("zero.ply: mesh is not a regular file"));
  CHECK_THAT(error_of(write("noend.ply", "ply\nformat ascii 1.0\nelement vertex 1\n" + kPoint)),
             Contains("noend.ply: header has no end_header line"));
  CHECK_THAT(error_of(std::string(5000, 'm') + ".ply"), Contains("File name too long"));
}

TEST_CASE("an OBJ coordinate beyond a float is refused", "[input][obj]") {
  CHECK_THAT(error_of(write("big.obj", "v 0 0 0\nv 1e300 0 0\nv 0 1 0\nf 1 2 3\n")),
             Contains("big.obj: line 2: expected three finite coordinates"));
}

TEST_CASE("valid small meshes still read", "[input][ply]") {
  const std::string ascii = "ply\nformat ascii 1.0\nelement vertex 3\n" + kPoint +
                            "element face 1\nproperty list uchar int vertex_indices\nelement empty 0\n"
                            "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  const TriangleMesh mesh = read_mesh(write("ok.ply", ascii));
  CHECK(mesh.vertices.size() == 3);
  CHECK(mesh.triangles.size() == 1);
  std::string binary = "ply\nformat binary_little_endian 1.0\nelement vertex 2\n" + kPoint + "end_header\n";
  const float xyz[6] = {1, 2, 3, 4, 5, 6};
  binary.append(reinterpret_cast<const char*>(xyz), sizeof(xyz));
  const TriangleMesh points = read_mesh(write("ok_binary.ply", binary));
  REQUIRE(points.vertices.size() == 2);
  CHECK(points.vertices[1][2] == 6.0f);
}

}  // namespace meniscus::sim
