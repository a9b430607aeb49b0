// The HistoPyramid itself: build sums and traversal as compaction and 1:m expansion.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "sim/histopyramid/histopyramid.h"
#include "sim/histopyramid/mc_tables.h"

namespace meniscus::sim {

TEST_CASE("the paper's figure: build sums and expansion by key index", "[histopyramid]") {
  // A 4x4 base in the spirit of Figure 3/4: elements allocating 0..3 outputs.
  const std::vector<uint32_t> counts = {1, 0, 3, 0,  //
                                        0, 2, 0, 0,  //
                                        0, 0, 1, 1,  //
                                        1, 0, 0, 0};
  HistoPyramid hp;
  hp.build(counts, 4);
  CHECK(hp.total() == 9);
  CHECK(hp.level_count() == 2);
  // Top texel: sums of the four 2x2 quadrants.
  CHECK(hp.texel(1, 0, 0) == std::array<uint32_t, 4>{3, 3, 1, 2});
  // Key 4 falls in the top-right quadrant (keys 3..5), at element (2,0) which allocates 3.
  const auto hit = hp.traverse(4);
  CHECK(hit.element == 2);
  CHECK(hit.local == 1);
}

TEST_CASE("traversal is a bijection onto (element, copy) pairs for random counts", "[histopyramid]") {
  std::mt19937 rng(42);
  for (uint32_t side : {2u, 8u, 64u}) {
    std::vector<uint32_t> counts(side * side);
    uint64_t sum = 0;
    for (auto& c : counts) {
      const uint32_t r = rng() % 10;
      c = r < 6 ? 0 : r - 5;  // mostly empty, some 1..4: compaction and expansion
      sum += c;
    }
    HistoPyramid hp;
    hp.build(counts, side);
    REQUIRE(hp.total() == sum);
    std::map<uint32_t, std::vector<bool>> seen;
    for (uint64_t k = 0; k < hp.total(); ++k) {
      const auto hit = hp.traverse(k);
      REQUIRE(hit.element < counts.size());
      REQUIRE(hit.local < counts[hit.element]);
      auto& copies = seen[hit.element];
      copies.resize(counts[hit.element]);
      REQUIRE_FALSE(copies[hit.local]);
      copies[hit.local] = true;
    }
    uint64_t covered = 0;
    for (const auto& [element, copies] : seen) covered += std::count(copies.begin(), copies.end(), true);
    CHECK(covered == sum);
  }
  HistoPyramid hp;
  hp.build(std::vector<uint32_t>(16, 0), 4);
  CHECK(hp.total() == 0);
  CHECK_THROWS(hp.traverse(0));
  CHECK_THROWS(hp.build(std::vector<uint32_t>(9, 1), 3));  // not a power of two
}

TEST_CASE("marching-cubes tables use exactly the crossing edges", "[histopyramid][tables]") {
  const auto& edges = mc::edges();
  CHECK(mc::cases()[0].triangles == 0);
  CHECK(mc::cases()[255].triangles == 0);
  CHECK(mc::max_triangles() <= mc::kMaxTriangles);
  for (int c = 0; c < 256; ++c) {
    const mc::Case& entry = mc::cases()[c];
    std::array<int, 12> uses{};
    for (int i = 0; i < entry.triangles * 3; ++i) ++uses[entry.edges[i]];
    for (int e = 0; e < 12; ++e) {
      const bool crossing = ((c >> edges[e].a) & 1) != ((c >> edges[e].b) & 1);
      INFO("case " << c << " edge " << e);
      CHECK((uses[e] > 0) == crossing);
    }
  }
  // A single inside corner is one triangle, two adjacent corners a quad (two triangles).
  CHECK(mc::cases()[1].triangles == 1);
  CHECK(mc::cases()[3].triangles == 2);
}

}  // namespace meniscus::sim
