#include "sim/sph/sph_cell_candidates.h"

#include <immintrin.h>

#include <cstring>

#include "sim/sph/sph_sse_lanes.h"

namespace meniscus::sim::sph {
namespace {

// Padding past the last candidate: farther than any support from any point.
constexpr float kFar = 1e18f;

}  // namespace

void CellCandidates::gather(Vec3 x) {
  int cell[3];
  cell_coords(grid_, x, cell);
  if (cell[0] == cell_[0] && cell[1] == cell_[1] && cell[2] == cell_[2]) return;
  for (int a = 0; a < 3; ++a) cell_[a] = cell[a];
  uint32_t count = 0;
  for_each_nearby_cell(grid_, rank_, cell_begin_, x, [&](uint32_t first, uint32_t end) { count += end - first; });
  const uint32_t padded = (count + kLanes - 1) / kLanes * kLanes;
  for (auto* v : {&x_, &y_, &z_}) v->resize(padded);
  index_.resize(padded);
  hits_.resize(padded);
  uint32_t k = 0;
  for_each_nearby_cell(grid_, rank_, cell_begin_, x, [&](uint32_t first, uint32_t end) {
    for (uint32_t j = first; j < end; ++j, ++k) {
      x_[k] = points_[j].x;
      y_[k] = points_[j].y;
      z_[k] = points_[j].z;
      index_[k] = j;
    }
  });
  for (; k < padded; ++k) x_[k] = y_[k] = z_[k] = kFar, index_[k] = UINT32_MAX;
}

void CellCandidates::within(Vec3 x, float radius_squared, uint32_t self, std::vector<uint32_t>& out) {
  const uint32_t n = uint32_t(index_.size());
  const Lanes px = splat(x.x), py = splat(x.y), pz = splat(x.z);
  const Lanes r2 = splat(radius_squared);
  uint32_t count = 0;
  for (uint32_t k = 0; k < n; k += kLanes) {
    Lanes cx, cy, cz;
    std::memcpy(&cx, &x_[k], sizeof(cx));
    std::memcpy(&cy, &y_[k], sizeof(cy));
    std::memcpy(&cz, &z_[k], sizeof(cz));
    // dot(d, d) as for_each_neighbour computes it (same operations, same order), so that the
    // same pairs pass.
    const Lanes dx = px - cx, dy = py - cy, dz = pz - cz;
    const LaneMask inside = (dx * dx + dy * dy + dz * dz) < r2;
    // The lanes' signs as bits in a register: reading the mask's lanes back one by one went
    // through memory, and stalled on the store.
    const uint32_t bits = uint32_t(_mm_movemask_ps(__m128(inside)));
    for (uint32_t lane = 0; lane < kLanes; ++lane) {
      const uint32_t j = index_[k + lane];
      hits_[count] = j;
      count += (bits >> lane) & uint32_t(j != self);
    }
  }
  out.insert(out.end(), hits_.begin(), hits_.begin() + count);
}

}  // namespace meniscus::sim::sph
