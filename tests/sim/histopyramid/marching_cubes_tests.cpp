// Marching cubes against a direct loop over the cells, geometry and topology.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "engine/core/error.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/mc_tables.h"

namespace meniscus::sim {
namespace {

// A random field surrounded by a layer of "outside" samples, so every surface is closed.
Volume padded_random(glm::uvec3 dims, uint32_t seed, int levels) {
  Volume v;
  v.dims = dims;
  v.source = "random";
  v.values.resize(size_t(dims.x) * dims.y * dims.z);
  std::mt19937 rng(seed);
  for (uint32_t z = 0; z < dims.z; ++z)
    for (uint32_t y = 0; y < dims.y; ++y)
      for (uint32_t x = 0; x < dims.x; ++x) {
        const bool border = x == 0 || y == 0 || z == 0 || x == dims.x - 1 || y == dims.y - 1 || z == dims.z - 1;
        // Integer levels make many samples equal to the iso value: the tie rule is exercised.
        v.values[v.index(x, y, z)] = border ? 0.0f : float(rng() % levels);
      }
  return v;
}

Volume padded_random(uint32_t n, uint32_t seed, int levels) { return padded_random({n, n, n}, seed, levels); }

// The triangles as triples of edge ids, in cell order, straight from a loop over the cells.
std::vector<std::array<uint64_t, 3>> direct_triangles(const Volume& v, float iso) {
  std::vector<std::array<uint64_t, 3>> out;
  for (uint32_t z = 0; z + 1 < v.dims.z; ++z)
    for (uint32_t y = 0; y + 1 < v.dims.y; ++y)
      for (uint32_t x = 0; x + 1 < v.dims.x; ++x) {
        const mc::Case& c = mc::cases()[MarchingCubes::cell_case(v, iso, x, y, z)];
        for (int t = 0; t < c.triangles; ++t) {
          std::array<uint64_t, 3> tri;
          for (int k = 0; k < 3; ++k) tri[k] = MarchingCubes::edge_id(v, x, y, z, c.edges[t * 3 + k]);
          out.push_back(tri);
        }
      }
  return out;
}

}  // namespace

TEST_CASE("extraction yields exactly the direct loop's triangles, in cell order", "[marching_cubes]") {
  // Cubes, and boxes whose rows cross 64-sample mask words (131 = 2 * 64 + 3, 65, 64) and whose
  // slices split into uneven blocks between the threads.
  std::vector<Volume> volumes;
  for (uint32_t seed : {1u, 2u, 3u}) volumes.push_back(padded_random(17 + seed, seed, 3));
  volumes.push_back(padded_random({131, 9, 23}, 4, 3));
  volumes.push_back(padded_random({65, 7, 11}, 5, 2));
  volumes.push_back(padded_random({64, 66, 5}, 6, 4));
  volumes.push_back(padded_random({2 + 1, 3, 70}, 7, 3));
  for (const Volume& v : volumes) {
    INFO(v.dims.x << "x" << v.dims.y << "x" << v.dims.z);
    McStats stats;
    std::vector<uint64_t> vertex_edges;
    const IndexedMesh mesh = MarchingCubes().extract(v, 1.0f, &stats, &vertex_edges);
    const auto expected = direct_triangles(v, 1.0f);
    CHECK(stats.triangles == expected.size());
    CHECK(stats.cells == uint64_t(v.dims.x - 1) * (v.dims.y - 1) * (v.dims.z - 1));
    std::vector<std::array<uint64_t, 3>> got;
    for (const glm::uvec3& t : mesh.triangles) got.push_back({vertex_edges[t.x], vertex_edges[t.y], vertex_edges[t.z]});
    CHECK(got == expected);
    // One vertex per crossed edge, in edge-id order.
    CHECK(std::is_sorted(vertex_edges.begin(), vertex_edges.end()));
    CHECK(std::adjacent_find(vertex_edges.begin(), vertex_edges.end()) == vertex_edges.end());
  }
}

TEST_CASE("each vertex interpolates its edge, and its normal the gradients at the ends", "[marching_cubes][geometry]") {
  // A smooth field with the surface touching every border, so the one-sided differences and
  // the sixteen-edge batches with border lanes are both exercised.
  Volume v = make_field("cayley", 70);
  v.spacing = {0.5f, 1.0f, 2.0f};
  v.origin = {-3.0f, 1.0f, 0.25f};
  std::vector<uint64_t> vertex_edges;
  const IndexedMesh mesh = MarchingCubes().extract(v, 0.0f, nullptr, &vertex_edges);
  REQUIRE(mesh.positions.size() > 1000);
  auto gradient = [&](glm::ivec3 p) {
    glm::dvec3 g;
    for (int axis = 0; axis < 3; ++axis) {
      glm::ivec3 lo = p, hi = p;
      lo[axis] = std::max(p[axis] - 1, 0);
      hi[axis] = std::min(p[axis] + 1, int(v.dims[axis]) - 1);
      g[axis] = (double(v.at(hi.x, hi.y, hi.z)) - v.at(lo.x, lo.y, lo.z)) / (hi[axis] - lo[axis]) / v.spacing[axis];
    }
    return g;
  };
  size_t off = 0;
  for (size_t i = 0; i < mesh.positions.size(); ++i) {
    const uint64_t sample = vertex_edges[i] / 3;
    const int axis = int(vertex_edges[i] % 3);
    const glm::ivec3 a(int(sample % v.dims.x), int(sample / v.dims.x % v.dims.y), int(sample / v.dims.x / v.dims.y));
    glm::ivec3 e = a;
    ++e[axis];
    const double fa = v.at(a.x, a.y, a.z), fe = v.at(e.x, e.y, e.z);
    const double t = (0.0 - fa) / (fe - fa);
    const glm::dvec3 position = glm::dvec3(v.origin) + glm::dvec3(v.spacing) * (glm::dvec3(a) + t * glm::dvec3(e - a));
    const glm::dvec3 normal = -glm::normalize(gradient(a) * (1 - t) + gradient(e) * t);
    const bool close = glm::length(glm::dvec3(mesh.positions[i]) - position) < 1e-5 &&
                       glm::length(glm::dvec3(mesh.normals[i]) - normal) < 1e-4;
    if (!close && off++ < 5)
      FAIL_CHECK("vertex " << i << " on edge " << vertex_edges[i] << ": (" << mesh.positions[i].x << ", "
                           << mesh.positions[i].y << ", " << mesh.positions[i].z << ") against (" << position.x << ", "
                           << position.y << ", " << position.z << ")");
  }
  CHECK(off == 0);
}

TEST_CASE("the AVX-512, AVX2 and baseline kernels give the same mesh bit for bit", "[marching_cubes]") {
  std::vector<std::pair<Volume, float>> cases;
  cases.emplace_back(make_field("cayley", 70), 0.0f);
  cases.emplace_back(make_field("torus", 131), 0.0f);
  cases.emplace_back(padded_random({131, 9, 23}, 8, 3), 1.0f);
  cases.emplace_back(padded_random({67, 13, 5}, 4, 11), 1.0f);
  // Uneven spacing, an offset origin and a NaN sample (outside, and a NaN gradient next to it).
  Volume stretched = make_field("cayley", 41);
  stretched.spacing = {0.7f, 1.3f, 2.1f};
  stretched.origin = {-3.0f, 0.25f, 7.0f};
  stretched.values[stretched.index(20, 17, 23)] = std::nanf("");
  cases.emplace_back(std::move(stretched), 0.1f);
  for (McKernels kernels : {McKernels::kFastest, McKernels::kAvx2}) {
    const McInstructionSet set = mc_instruction_set(kernels);
    if (set == McInstructionSet::kBaseline) {
      WARN("no " << (kernels == McKernels::kAvx2 ? "AVX2" : "AVX2 or AVX-512") << " on this CPU: not compared");
      continue;
    }
    INFO("kernels: " << mc_kernels_name(kernels));
    for (auto& [volume, iso] : cases) {
      INFO(volume.source << " " << volume.dims.x << "x" << volume.dims.y << "x" << volume.dims.z);
      std::vector<uint64_t> fast_edges, base_edges;
      const IndexedMesh fast = MarchingCubes(kernels).extract(volume, iso, nullptr, &fast_edges);
      const IndexedMesh base = MarchingCubes(McKernels::kBaseline).extract(volume, iso, nullptr, &base_edges);
      REQUIRE(fast.positions.size() == base.positions.size());
      REQUIRE(fast.triangles.size() == base.triangles.size());
      CHECK(fast_edges == base_edges);
      CHECK(std::memcmp(fast.positions.data(), base.positions.data(), fast.positions.size() * sizeof(glm::vec3)) == 0);
      CHECK(std::memcmp(fast.normals.data(), base.normals.data(), fast.normals.size() * sizeof(glm::vec3)) == 0);
      CHECK(std::memcmp(fast.triangles.data(), base.triangles.data(), fast.triangles.size() * sizeof(glm::uvec3)) == 0);
    }
  }
}

TEST_CASE("one extractor reused, first without edge ids and then with them", "[marching_cubes]") {
  const Volume v = make_field("cayley", 40);
  MarchingCubes reused;
  const IndexedMesh first = reused.extract(v, 0.0f);
  std::vector<uint64_t> edges, fresh_edges;
  const IndexedMesh again = reused.extract(v, 0.0f, nullptr, &edges);
  MarchingCubes().extract(v, 0.0f, nullptr, &fresh_edges);
  CHECK(again.positions.size() == first.positions.size());
  CHECK(edges == fresh_edges);
}

TEST_CASE("one extractor reused on other samples of the same size gives what a fresh one does", "[marching_cubes]") {
  // Its scratch (sample bits, numbered slices) is kept between calls; nothing of the first
  // volume may leak into the second.
  const Volume torus = make_field("torus", 48), cayley = make_field("cayley", 48);
  MarchingCubes reused;
  reused.extract(torus, 0.0f);
  const IndexedMesh again = reused.extract(cayley, 0.0f);
  const IndexedMesh fresh = MarchingCubes().extract(cayley, 0.0f);
  REQUIRE(again.triangles.size() == fresh.triangles.size());
  CHECK(std::memcmp(again.triangles.data(), fresh.triangles.data(), fresh.triangles.size() * sizeof(glm::uvec3)) == 0);
  CHECK(std::memcmp(again.positions.data(), fresh.positions.data(), fresh.positions.size() * sizeof(glm::vec3)) == 0);
}

TEST_CASE("closed surfaces are watertight and manifold, ties included", "[marching_cubes][topology]") {
  for (uint32_t seed : {4u, 5u, 6u, 7u}) {
    const Volume v = padded_random(24, seed, seed % 2 ? 2 : 4);  // iso 1 hits ties with 3+ levels
    const IndexedMesh mesh = MarchingCubes().extract(v, 1.0f);
    REQUIRE_FALSE(mesh.triangles.empty());
    const EdgeCensus census = edge_census(mesh);
    INFO("seed " << seed << ": boundary " << census.boundary << ", non-manifold " << census.non_manifold);
    CHECK(census.watertight());
  }
  for (const char* field : {"sphere", "torus"}) {
    const IndexedMesh mesh = MarchingCubes().extract(make_field(field, 48), 0.0f);
    INFO(field);
    CHECK(edge_census(mesh).watertight());
  }
  // Rows padded to 256 cells with whole empty 64-cell words after the last cell (129..191
  // cells): the padding words must count nothing (they once read the next row's samples).
  for (uint32_t n : {130u, 150u, 180u}) {
    const IndexedMesh mesh = MarchingCubes().extract(make_field("sphere", n), 0.0f);
    INFO("sphere " << n);
    CHECK(edge_census(mesh).watertight());
    CHECK(mesh.triangles.size() == 2 * mesh.positions.size() - 4);  // a closed genus-0 surface
  }
}

TEST_CASE("a sphere's area is within 1% of 4 pi r^2 at 128^3, normals point out", "[marching_cubes][geometry]") {
  const IndexedMesh mesh = MarchingCubes().extract(make_field("sphere", 128), 0.0f);
  const double r = 0.8, analytic = 4.0 * M_PI * r * r;
  const double area = mesh.area();
  INFO("area " << area << " vs " << analytic);
  CHECK(std::abs(area - analytic) / analytic < 0.01);
  size_t outward_normals = 0, outward_faces = 0;
  for (size_t i = 0; i < mesh.positions.size(); ++i) outward_normals += glm::dot(mesh.normals[i], mesh.positions[i]) > 0;
  for (const glm::uvec3& t : mesh.triangles) {
    const glm::vec3 a = mesh.positions[t.x], b = mesh.positions[t.y], c = mesh.positions[t.z];
    outward_faces += glm::dot(glm::cross(b - a, c - a), a + b + c) > 0;
  }
  CHECK(outward_normals == mesh.positions.size());
  CHECK(outward_faces == mesh.triangles.size());
  for (const glm::vec3& p : mesh.positions) CHECK(std::abs(glm::length(p) - r) < 0.01);
}

TEST_CASE("Cayley at odd N: samples equal to the iso value count as inside", "[marching_cubes][ties]") {
  const Volume v = make_field("cayley", 33);  // sample 16 is x = 0 exactly
  // f(0, 0.5, 0) = 1 - 4 * 0.25 = 0 exactly: a tie at the iso value.
  const uint32_t mid = 16, quarter = 24;  // 2*24/32 - 1 = 0.5
  REQUIRE(v.at(mid, quarter, mid) == 0.0f);
  const uint8_t c = MarchingCubes::cell_case(v, 0.0f, mid, quarter, mid);
  CHECK((c & 1) == 1);  // corner 0 is that sample, and it is inside
  const IndexedMesh mesh = MarchingCubes().extract(v, 0.0f);
  CHECK_FALSE(mesh.triangles.empty());
  // The Cayley surface leaves the cube, so it has a boundary, but never a non-manifold edge.
  CHECK(edge_census(mesh).non_manifold == 0);
}

TEST_CASE("an iso value outside the data range is an error naming the volume", "[marching_cubes][errors]") {
  const Volume v = make_field("sphere", 16);
  CHECK_THROWS_WITH(MarchingCubes().extract(v, 5.0f), Catch::Matchers::Contains("sphere:16") &&
                                                            Catch::Matchers::Contains("outside the data range"));
  CHECK_THROWS_AS(MarchingCubes().extract(v, std::nanf("")), InputError);
}

}  // namespace meniscus::sim
