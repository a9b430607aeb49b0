#include "sim/levelset/advection_rows.h"

#if defined(MENISCUS_HAS_FLOAT4)
#include "sim/levelset/halo_block.h"
#include "sim/levelset/upwind.h"
#include "sim/levelset/weno5_rows.h"

namespace meniscus::sim::levelset {
namespace {

// flat_beyond_band (upwind.h) for the four voxels of a row at once, as bits 0..3: the same
// samples compared with the same centre.
uint32_t flat_lanes(const float* row, int reach, float gamma) {
  const __m128 c = _mm_loadu_ps(row);
  const auto same = [&](int offset) { return _mm_cmpeq_ps(_mm_loadu_ps(row + offset), c); };
  __m128 flat = _mm_cmpeq_ps(abs(Float4{c}).v, _mm_set1_ps(gamma));
  for (int k = 1; k <= reach; ++k)
    for (const int s : kHaloStrides) flat = _mm_and_ps(flat, _mm_and_ps(same(k * s), same(-k * s)));
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) {
      const int u = kHaloStrides[a], v = kHaloStrides[b];
      flat = _mm_and_ps(flat, _mm_and_ps(_mm_and_ps(same(u + v), same(u - v)), _mm_and_ps(same(-u + v), same(-u - v))));
    }
  return uint32_t(_mm_movemask_ps(flat));
}

}  // namespace

float advection_rate_rows(const float* block, glm::vec3 origin, float t, float gamma, const VelocityField& velocity,
                          float* rate) {
  float fastest = 0.0f;
  for (int z = 0; z < kTileSide; ++z)
    for (int y = 0; y < kTileSide; ++y) {
      const float* row = block + halo_index(0, y, z);
      float* out = rate + SortedTileList::voxel_index(0, y, z);
      static_assert(kTileSide == 4, "a tile row is one Float4");
      const uint32_t flat_bits = flat_lanes(row, stencil_reach(Scheme::kWeno5), gamma);
      const auto flat = [&](int x) { return (flat_bits >> x) & 1; };
      if (flat_bits == 0xF) {
        for (int x = 0; x < kTileSide; ++x) out[x] = 0.0f;
        continue;
      }
      float u[3][kTileSide];
      for (int x = 0; x < kTileSide; ++x) {
        const glm::vec3 ux = flat(x) ? glm::vec3(0.0f) : velocity(origin + glm::vec3(x, y, z), t);
        for (int a = 0; a < 3; ++a) u[a][x] = ux[a];
      }
      Float4 dot = Float4::splat(0.0f), speed = dot;
      for (int a = 0; a < 3; ++a) {
        const Float4 ua = Float4::load(u[a]);
        const Float4 term = ua * Weno5Row(row, kHaloStrides[a]).upwind(ua);
        // glm::dot's order, ((x + y) + z), and the CFL speed's (the per-voxel path adds it to 0,
        // which changes nothing: an |u| is never -0).
        dot = a == 0 ? term : dot + term;
        speed = a == 0 ? abs(ua) : speed + abs(ua);
      }
      float l[kTileSide], v[kTileSide];
      (0.0f - dot).store(l);  // as l -= dot from l = 0: +0, not -0, where dot is 0
      speed.store(v);
      for (int x = 0; x < kTileSide; ++x) {
        out[x] = flat(x) ? 0.0f : l[x];
        if (!flat(x)) fastest = std::max(fastest, v[x]);
      }
    }
  return fastest;
}

}  // namespace meniscus::sim::levelset
#endif
