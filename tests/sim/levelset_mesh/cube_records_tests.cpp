// Cube records (sim/levelset/cube_records.h) and their CPU triangulation
// (sim/histopyramid/record_mesh.h), checked against independent figures: the crossed cells of
// a dense re-sample of the same level set counted by brute force, a sphere's analytic area,
// and the edge census of the mesh (closed and manifold, i.e. crack-free).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/core/data_files.h"
#include "engine/core/error.h"
#include "sim/common/mesh_reader.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/dense_sampling.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/mesh_level_set.h"

namespace meniscus::sim::levelset {
namespace {

// Cells of a dense re-sample whose corners straddle iso (inside: φ - iso <= 0), over a box a
// tile wider than the band on every side.
uint64_t brute_force_crossed_cells(const SortedTileList& list, float iso) {
  glm::ivec3 lo(INT32_MAX), hi(INT32_MIN);
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z));
    hi = glm::max(hi, glm::ivec3(c.x, c.y, c.z));
  }
  const glm::ivec3 min_voxel = (lo - 1) * kTileSide, dims = (hi - lo + 3) * kTileSide;
  std::vector<float> phi;
  sample_dense(list, min_voxel, dims, phi);
  auto inside = [&](int x, int y, int z) { return phi[(size_t(z) * dims.y + y) * dims.x + x] - iso <= 0.0f; };
  uint64_t crossed = 0;
  for (int z = 0; z + 1 < dims.z; ++z)
    for (int y = 0; y + 1 < dims.y; ++y)
      for (int x = 0; x + 1 < dims.x; ++x) {
        int count = 0;
        for (int c = 0; c < 8; ++c) count += inside(x + (c & 1), y + (c >> 1 & 1), z + (c >> 2 & 1));
        crossed += count > 0 && count < 8;
      }
  return crossed;
}

// Records, their count against brute force, and their mesh's edge census; returns the mesh
// (in voxel units).
IndexedMesh check_records(const SortedTileList& list, float iso = 0.0f) {
  CubeRecordSet set;
  generate_cube_records(list, set, iso);
  INFO("tiles " << list.size() << ", records " << set.records.size());
  CHECK(set.records.size() == brute_force_crossed_cells(list, iso));
  const IndexedMesh mesh = extract_record_mesh(set, glm::vec3(set.origin), 1.0f);
  CHECK(mesh.triangles.size() == record_triangle_count(set));
  const EdgeCensus census = edge_census(mesh);
  INFO("boundary edges " << census.boundary << ", non-manifold " << census.non_manifold);
  CHECK(census.watertight());
  CHECK(mesh.triangles.size() > 0);
  return mesh;
}

}  // namespace

TEST_CASE("levelset records: corner quantisation keeps the tie rule and is one function of the value", "[levelset][records]") {
  const float gamma = 1.5f;
  CHECK(quantise_corner(0.0f, gamma) == -1);  // equal to the iso value: inside
  CHECK(quantise_corner(-0.0f, gamma) == -1);
  CHECK(quantise_corner(1e-30f, gamma) == 0);  // the least bit outside is outside
  CHECK(quantise_corner(gamma, gamma) == 127);
  CHECK(quantise_corner(-gamma, gamma) == -128);
  CHECK(quantise_corner(10.0f, gamma) == 127);  // saturates beyond the band
  CHECK(quantise_corner(-10.0f, gamma) == -128);
  int previous = -128;
  for (float v = -1.6f; v <= 1.6f; v += 1e-3f) {
    const int8_t q = quantise_corner(v, gamma);
    CHECK(corner_inside(q) == (v <= 0.0f));
    CHECK(int(q) >= previous);  // monotonic
    previous = q;
    if (std::abs(v) < gamma) CHECK(std::abs(decode_corner(q, gamma) - v) <= gamma / 256.0f + 1e-6f);
    CHECK(decode_corner(q, gamma) != 0.0f);  // vertices never sit on a corner
  }
}

TEST_CASE("levelset records: a record is 15 bytes and round-trips its position and case", "[levelset][records]") {
  const int8_t codes[8] = {-1, 0, 5, -128, 127, 3, -7, 9};
  const CubeRecord r = make_cube_record({65535, 258, 7}, codes);
  CHECK(sizeof(r) == 15);
  CHECK(record_position(r) == glm::uvec3(65535, 258, 7));
  CHECK(r.mc_case == (1 | 8 | 64));
  CHECK(std::memcmp(r.corners, codes, 8) == 0);
}

TEST_CASE("levelset records: records of a sphere: brute-force count, watertight, area within 1%", "[levelset][records]") {
  const float radius = 30.0f;
  const glm::vec3 centre(40.3f, 41.7f, 39.1f);
  SortedTileList list(1.5f);
  build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, glm::ivec3(0), glm::ivec3(84));
  const IndexedMesh mesh = check_records(list);
  const double analytic = 4.0 * M_PI * radius * radius;
  INFO("area " << mesh.area() << " vs " << analytic);
  CHECK(std::abs(mesh.area() - analytic) / analytic < 0.01);
  // Every vertex within a quantisation step and the linear-interpolation error of the sphere.
  double worst = 0;
  for (const glm::vec3& p : mesh.positions) worst = std::max(worst, double(std::abs(glm::length(p - centre) - radius)));
  CHECK(worst < 0.05);
  // Normals point outwards.
  size_t outward = 0;
  for (size_t i = 0; i < mesh.positions.size(); ++i) outward += glm::dot(mesh.normals[i], glm::normalize(mesh.positions[i] - centre)) > 0.95f;
  CHECK(outward == mesh.positions.size());
  // Another iso value inside the band: a sphere 0.5 voxel larger.
  CHECK(check_records(list, 0.5f).area() > mesh.area());
}

TEST_CASE("levelset records: records follow an evolving level set and stay watertight", "[levelset][records]") {
  SortedTileList list(1.5f);
  const glm::vec3 centre(30.2f, 28.9f, 31.4f);
  // Two overlapping spheres: a saddle where they meet, shrinking under mean-curvature flow.
  build_from_sdf(list, [&](glm::vec3 p) {
    return std::min(glm::length(p - centre) - 14.0f, glm::length(p - centre - glm::vec3(15.0f, 4.0f, 2.0f)) - 10.0f);
  }, glm::ivec3(0), glm::ivec3(64));
  EvolutionParams params;
  params.scheme = Scheme::kUpwind;
  params.alpha = 1.0f;
  params.rescaling_speed = true;
  LevelSetEvolution evolution(params);
  float t = 0.0f;
  for (int step = 0; step < 12; ++step) {
    t += evolution.step(list, t);
    if (step % 4 == 3) check_records(list);
  }
}

TEST_CASE("levelset records: records are the same, byte for byte, on every run", "[levelset][records]") {
  SortedTileList list(1.5f);
  build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(20.5f)) - 12.0f; }, glm::ivec3(0), glm::ivec3(42));
  CubeRecordSet a, b;
  generate_cube_records(list, a);
  generate_cube_records(list, b);
  REQUIRE(a.records.size() == b.records.size());
  CHECK(std::memcmp(a.records.data(), b.records.data(), a.records.size() * sizeof(CubeRecord)) == 0);
}

// [slow]: the sphere's case takes the same paths under the sanitizers.
TEST_CASE("levelset records: records of Lucy are watertight and match the brute-force count",
          "[levelset][records][data][slow]") {
  const auto path = find_data_file("vtk-data/lucy.ply");
  const TriangleMesh lucy = read_mesh(path);
  const VoxelFrame frame = fit_frame(lucy, 128, 8, path.string());
  SortedTileList list(1.5f);
  build_from_mesh(list, lucy, frame, path.string());
  const IndexedMesh mesh = check_records(list);
  CubeRecordSet set;
  generate_cube_records(list, set);
  // What the level-set stage uploads per frame against the dense volume it replaced.
  const double record_bytes = double(set.records.size() * sizeof(CubeRecord));
  const double dense_bytes = double(frame.dims.x) * frame.dims.y * frame.dims.z * sizeof(float);
  WARN("Lucy at 128: " << list.size() << " tiles, " << set.records.size() << " records (" << record_bytes / 1e6
                       << " MB), dense volume " << frame.dims.x << "x" << frame.dims.y << "x" << frame.dims.z << " ("
                       << dense_bytes / 1e6 << " MB): " << dense_bytes / record_bytes << "x smaller, "
                       << mesh.triangles.size() << " triangles");
  CHECK(record_bytes < dense_bytes);
}

TEST_CASE("levelset records: write_cube_records lays out the shared buffer, header first, records up to capacity", "[levelset][records]") {
  CHECK(cube_record_buffer_bytes(0) == 32);
  CHECK(cube_record_buffer_bytes(1) == 48);  // 47 bytes, rounded up to whole words
  CHECK(cube_record_buffer_bytes(4) == 92);
  SortedTileList list(1.5f);
  build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(10.3f, 9.8f, 10.1f)) - 6.0f; }, glm::ivec3(0),
                 glm::ivec3(21));
  CubeRecordSet set;
  generate_cube_records(list, set, 0.3f);
  const uint32_t needed = uint32_t(set.records.size());
  REQUIRE(needed > 10);
  for (const uint32_t capacity : {needed + 2, needed, needed / 2, 1u, 0u}) {
    INFO("capacity " << capacity << " of " << needed);
    std::vector<std::byte> buffer(cube_record_buffer_bytes(capacity), std::byte{0x5A});
    write_cube_records(list, 0.3f, buffer.data(), capacity, "sphere");
    CubeRecordHeader h;
    std::memcpy(&h, buffer.data(), sizeof h);
    CHECK(h.count == std::min(needed, capacity));
    CHECK(h.needed == needed);
    CHECK(glm::ivec3(h.origin[0], h.origin[1], h.origin[2]) == set.origin);
    CHECK(h.gamma == 1.5f);
    CHECK(h.iso == 0.3f);
    CHECK(h.reserved == 0);
    CHECK(std::memcmp(buffer.data() + kCubeRecordsOffset, set.records.data(), h.count * sizeof(CubeRecord)) == 0);
    // Nothing past the records written: the rest of a buffer may still be the previous frame's.
    const auto end = buffer.begin() + ptrdiff_t(kCubeRecordsOffset + h.count * sizeof(CubeRecord));
    CHECK(std::all_of(end, buffer.end(), [](std::byte b) { return b == std::byte{0x5A}; }));
    CHECK_NOTHROW(check_cube_record_header(h, "sphere"));  // a short frame is not an error
  }
  std::vector<std::byte> buffer(cube_record_buffer_bytes(8));
  const SortedTileList empty(0.75f);
  write_cube_records(empty, -0.5f, buffer.data(), 8);
  CubeRecordHeader h;
  std::memcpy(&h, buffer.data(), sizeof h);
  CHECK((h.count == 0 && h.needed == 0 && h.origin[0] == 0 && h.origin[1] == 0 && h.origin[2] == 0));
  CHECK((h.gamma == 0.75f && h.iso == -0.5f && h.reserved == 0));
  CHECK_THROWS_WITH(write_cube_records(list, -1.5f, buffer.data(), 8, "sphere"), Catch::Contains("sphere") && Catch::Contains("band"));
  // What the CUDA backend writes for a band too wide for 16-bit positions, as the CPU's error.
  h.reserved = kCubeRecordsTooWide;
  h.needed = 12;
  CHECK_THROWS_WITH(check_cube_record_header(h, "wide.vdb"), Catch::Contains("wide.vdb") && Catch::Contains("16-bit"));
}

TEST_CASE("levelset records: records refuse positions beyond 16 bits and iso values outside the band", "[levelset][records][input]") {
  CHECK(record_position_of({65534, 0, 9}, {-1, 0, 0}, "wide") == glm::uvec3(65535, 0, 9));
  CHECK_THROWS_AS(record_position_of({65535, 0, 0}, {-1, 0, 0}, "wide"), InputError);
  CHECK_THROWS_WITH(record_position_of({10, 70000, 0}, {0, 0, 0}, "wide.vdb"),
                    Catch::Contains("wide.vdb") && Catch::Contains("16-bit") && Catch::Contains("65536 voxels"));
  CHECK_THROWS_AS(record_position_of({-5, 0, 0}, {0, 0, 0}, "wide"), InputError);
  SortedTileList list(1.5f);
  build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(10.0f)) - 5.0f; }, glm::ivec3(0), glm::ivec3(21));
  CubeRecordSet set;
  CHECK_THROWS_WITH(generate_cube_records(list, set, 1.5f, "sphere"), Catch::Contains("sphere") && Catch::Contains("band"));
#if MENISCUS_LEVELSET_WIDE_KEYS
  // Only wide keys can hold a band this wide.
  SortedTileList wide(1.5f);
  wide.insert({key_of({0, 0, 0}), key_of({20000, 0, 0})}, -0.5f);
  CHECK_THROWS_WITH(generate_cube_records(wide, set, 0.0f, "wide"), Catch::Contains("16-bit"));
#endif
}

}  // namespace meniscus::sim::levelset
