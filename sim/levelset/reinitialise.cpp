#include "sim/levelset/reinitialise.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/levelset/halo_block.h"
#include "sim/levelset/weno5_rows.h"

namespace meniscus::sim::levelset {

void require_valid(const ReinitParams& params, const char* who) {
  if (params.iterations <= 0) return;
  if (!(params.cfl > 0.0f && params.cfl <= 1.0f))
    throw std::invalid_argument(std::string(who) + ": reinit.cfl must be in (0, 1]");
  if (params.every < 1) throw std::invalid_argument(std::string(who) + ": reinit.every must be >= 1");
}

void Reinitialiser::run(SortedTileList& list, const ReinitParams& params) {
  if (params.iterations <= 0 || list.size() == 0) return;
  const auto& active = list.active();
  phi0_.resize(active.size() * kTileVoxels);
  for (size_t i = 0; i < active.size(); ++i) list.read(active[i].id, phi0_.data() + i * kTileVoxels);

  const Scheme scheme = params.scheme;
  const RateFunction rate = [&](const SortedTileList& l, float, std::vector<float>& out) {
    for_each_halo_block(l, [&](size_t position, uint32_t, const float* block) {
      const float* phi0 = phi0_.data() + position * kTileVoxels;
      float* r = out.data() + position * kTileVoxels;
#if defined(MENISCUS_HAS_FLOAT4)
      if (scheme == Scheme::kWeno5) {  // a row of four voxels at a time, bit-equal to the loop below
        for (int z = 0; z < kTileSide; ++z)
          for (int y = 0; y < kTileSide; ++y) {
            const float* row = block + halo_index(0, y, z);
            Float4 minus[3], plus[3];
            for (int a = 0; a < 3; ++a) {
              const Weno5Row stencils(row, kHaloStrides[a]);
              minus[a] = stencils.minus();
              plus[a] = stencils.plus();
            }
            const int v = SortedTileList::voxel_index(0, y, z);
            reinit_rate(minus, plus, Float4::load(phi0 + v)).store(r + v);
          }
        return;
      }
#endif
      for (int z = 0; z < kTileSide; ++z)
        for (int y = 0; y < kTileSide; ++y)
          for (int x = 0; x < kTileSide; ++x) {
            const int v = SortedTileList::voxel_index(x, y, z);
            r[v] = reinit_rate(scheme, block + halo_index(x, y, z), kHaloStrideY, kHaloStrideZ, phi0[v]);
          }
    }, stencil_reach(scheme));
    // |∂H/∂∇φ| summed over the axes is at most |S| √3 ≤ √3.
    return std::sqrt(3.0f);
  };
  for (int k = 0; k < params.iterations; ++k)
    integrator_.step(list, scheme, 0.0f, params.cfl, std::numeric_limits<float>::infinity(), rate);
}

}  // namespace meniscus::sim::levelset
