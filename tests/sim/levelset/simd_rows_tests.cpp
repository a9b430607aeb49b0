// The CPU's four-voxel rows (weno5_rows.h, advection_rows.h, reinit_rate on Float4) against the
// per-voxel float functions they stand in for, to the bit, on random halo blocks: the band's
// ±γ plateaus (so that whole rows and single lanes are flat beyond the band), signed zeros,
// both signs, and velocities with zero components.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "sim/levelset/advection_rows.h"
#include "sim/levelset/halo_block.h"
#include "sim/levelset/upwind.h"
#include "sim/levelset/weno5_rows.h"

#if defined(MENISCUS_HAS_FLOAT4)
namespace meniscus::sim::levelset {
namespace {

constexpr float kGamma = 3.0f;

// Even seeds: a +γ plateau with a few values in it; odd seeds: every kind of value mixed.
std::vector<float> random_block(uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> inside(-kGamma, kGamma);
  std::uniform_int_distribution<int> kind(0, 99);
  std::vector<float> block(kHaloVoxels);
  for (float& v : block) {
    const int k = kind(rng);
    if (seed % 2 == 0)
      v = k < 97 ? kGamma : inside(rng);
    else
      v = k < 25 ? kGamma : k < 40 ? -kGamma : k < 45 ? -0.0f : k < 50 ? 0.0f : inside(rng);
  }
  return block;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A velocity with zero and negative components, different at every voxel and time.
glm::vec3 swirl(glm::vec3 p, float t) {
  return {std::sin(0.7f * p.y + t), p.x > 5.0f ? 0.0f : std::cos(0.3f * p.z - t), -0.5f * std::sin(p.x + p.z)};
}

}  // namespace

TEST_CASE("levelset: WENO5 rows equal weno5_minus, weno5_plus and the upwind choice to the bit", "[levelset][simd]") {
  size_t compared = 0, different = 0;
  for (uint32_t seed = 0; seed < 64; ++seed) {
    const std::vector<float> block = random_block(seed);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y) {
        const float* row = block.data() + halo_index(0, y, z);
        for (const int s : kHaloStrides) {
          const Weno5Row stencils(row, s);
          const float u[4] = {1.0f, -1.0f, 0.0f, -0.0f};
          float minus[4], plus[4], upwind[4];
          stencils.minus().store(minus);
          stencils.plus().store(plus);
          stencils.upwind(Float4::load(u)).store(upwind);
          for (int x = 0; x < kTileSide; ++x) {
            const float m = weno5_minus(row + x, s), p = weno5_plus(row + x, s);
            different += !same_bits(minus[x], m) + !same_bits(plus[x], p) + !same_bits(upwind[x], u[x] > 0 ? m : p);
            compared += 3;
          }
        }
      }
  }
  INFO(different << " of " << compared << " derivatives differ");
  CHECK(different == 0);
}

TEST_CASE("levelset: pure advection rows equal the per-voxel rate to the bit", "[levelset][simd]") {
  size_t compared = 0, different = 0, flat = 0;
  for (uint32_t seed = 0; seed < 64; ++seed) {
    const std::vector<float> block = random_block(seed);
    const glm::vec3 origin(4.0f * float(seed % 3), 4.0f, -8.0f);
    const float t = 0.1f * float(seed);
    float rows[kTileVoxels];
    const float fastest = advection_rate_rows(block.data(), origin, t, kGamma, swirl, rows);
    // LevelSetEvolution::rate's per-voxel path with only the velocity term.
    float expected_fastest = 0.0f;
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const float* centre = block.data() + halo_index(x, y, z);
          float l = 0.0f;
          if (flat_beyond_band(centre, kHaloStrideY, kHaloStrideZ, stencil_reach(Scheme::kWeno5), kGamma)) {
            ++flat;
          } else {
            const glm::vec3 u = swirl(origin + glm::vec3(x, y, z), t);
            l -= glm::dot(u, upwind_gradient(Scheme::kWeno5, centre, kHaloStrideY, kHaloStrideZ, u));
            float speed = 0.0f;
            speed += std::abs(u.x) + std::abs(u.y) + std::abs(u.z);
            expected_fastest = std::max(expected_fastest, std::max(speed, 0.0f));
          }
          different += !same_bits(rows[SortedTileList::voxel_index(x, y, z)], l);
          ++compared;
        }
    different += !same_bits(fastest, expected_fastest);
  }
  INFO(different << " of " << compared << " rates differ; " << flat << " voxels flat beyond the band");
  CHECK(flat > 0);
  CHECK(flat < compared);
  CHECK(different == 0);
}

TEST_CASE("levelset: reinitialisation rows equal reinit_rate to the bit", "[levelset][simd]") {
  size_t compared = 0, different = 0;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> phi0(-2.0f * kGamma, 2.0f * kGamma);
  for (uint32_t seed = 0; seed < 64; ++seed) {
    const std::vector<float> block = random_block(seed);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y) {
        const float* row = block.data() + halo_index(0, y, z);
        float start[4] = {phi0(rng), phi0(rng), -0.0f, phi0(rng)};
        Float4 minus[3], plus[3];
        for (int a = 0; a < 3; ++a) {
          const Weno5Row stencils(row, kHaloStrides[a]);
          minus[a] = stencils.minus();
          plus[a] = stencils.plus();
        }
        float rate[4];
        reinit_rate(minus, plus, Float4::load(start)).store(rate);
        for (int x = 0; x < kTileSide; ++x) {
          different += !same_bits(rate[x], reinit_rate(Scheme::kWeno5, row + x, kHaloStrideY, kHaloStrideZ, start[x]));
          ++compared;
        }
      }
  }
  INFO(different << " of " << compared << " rates differ");
  CHECK(different == 0);
}

}  // namespace meniscus::sim::levelset
#endif
