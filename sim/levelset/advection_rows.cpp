#include "sim/levelset/advection_rows.h"

#if defined(MENISCUS_HAS_FLOAT4)
#include "sim/levelset/halo_block.h"
#include "sim/levelset/upwind.h"

namespace meniscus::sim::levelset {
namespace {

// The upwind WENO5 derivative along the axis of stride s at the four voxels from `row`: per
// lane the backward-biased one where u > 0, else the forward-biased one (upwind_gradient).
// The two candidates' differences are chosen lane by lane, then combined once.
Float4 upwind_weno5(const float* row, int s, Float4 u) {
  Float4 d[6];  // d[k + 3] = φ[k + 1] − φ[k], k = −3..2
  Float4 below = Float4::load(row - 3 * s);
  for (int k = -3; k <= 2; ++k) {
    const Float4 above = Float4::load(row + (k + 1) * s);
    d[k + 3] = above - below;
    below = above;
  }
  const __m128 backward = greater(u, Float4::splat(0.0f));
  return weno5(select(backward, d[0], d[5]), select(backward, d[1], d[4]), select(backward, d[2], d[3]),
               select(backward, d[3], d[2]), select(backward, d[4], d[1]));
}

}  // namespace

float advection_rate_rows(const float* block, glm::vec3 origin, float t, float gamma, const VelocityField& velocity,
                          float* rate) {
  constexpr int kStrides[3] = {1, kHaloStrideY, kHaloStrideZ};
  float fastest = 0.0f;
  for (int z = 0; z < kTileSide; ++z)
    for (int y = 0; y < kTileSide; ++y) {
      const float* row = block + halo_index(0, y, z);
      float* out = rate + SortedTileList::voxel_index(0, y, z);
      static_assert(kTileSide == 4, "a tile row is one Float4");
      bool flat[kTileSide], all_flat = true;
      for (int x = 0; x < kTileSide; ++x) {
        flat[x] = flat_beyond_band(row + x, kHaloStrideY, kHaloStrideZ, stencil_reach(Scheme::kWeno5), gamma);
        all_flat = all_flat && flat[x];
      }
      if (all_flat) {
        for (int x = 0; x < kTileSide; ++x) out[x] = 0.0f;
        continue;
      }
      float u[3][kTileSide];
      for (int x = 0; x < kTileSide; ++x) {
        const glm::vec3 ux = flat[x] ? glm::vec3(0.0f) : velocity(origin + glm::vec3(x, y, z), t);
        for (int a = 0; a < 3; ++a) u[a][x] = ux[a];
      }
      Float4 dot = Float4::splat(0.0f), speed = dot;
      for (int a = 0; a < 3; ++a) {
        const Float4 ua = Float4::load(u[a]);
        const Float4 term = ua * upwind_weno5(row, kStrides[a], ua);
        // glm::dot's order, ((x + y) + z), and the CFL speed's.
        dot = a == 0 ? term : dot + term;
        speed = a == 0 ? abs(ua) : speed + abs(ua);
      }
      float l[kTileSide], v[kTileSide];
      (0.0f - dot).store(l);
      speed.store(v);
      for (int x = 0; x < kTileSide; ++x) {
        out[x] = flat[x] ? 0.0f : l[x];
        if (!flat[x]) fastest = std::max(fastest, v[x]);
      }
    }
  return fastest;
}

}  // namespace meniscus::sim::levelset
#endif
