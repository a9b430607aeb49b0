#include "sim/levelset/ray_hit.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "sim/levelset/level_set_builder.h"

namespace meniscus::sim::levelset {

std::optional<glm::vec3> first_hit(const SortedTileList& list, glm::vec3 origin, glm::vec3 direction, float max_voxels) {
  const float length = glm::length(direction);
  if (!(length > 0.0f) || list.size() == 0) return std::nullopt;
  const glm::vec3 d = direction / length;
  // Only the span inside the stored tiles' bounding box is marched (the far plane is far).
  glm::ivec3 lo(INT32_MAX), hi(INT32_MIN);
  for (const TileEntry& e : list.active()) {
    const TileCoord c = coord_of(e.key);
    lo = glm::min(lo, glm::ivec3(c.x, c.y, c.z));
    hi = glm::max(hi, glm::ivec3(c.x, c.y, c.z));
  }
  const glm::vec3 box_lo = glm::vec3(lo * kTileSide) - 0.5f, box_hi = glm::vec3((hi + 1) * kTileSide) - 0.5f;
  float enter = 0.0f, leave = max_voxels;
  for (int a = 0; a < 3; ++a) {
    if (d[a] == 0.0f) {
      if (origin[a] < box_lo[a] || origin[a] > box_hi[a]) return std::nullopt;
      continue;
    }
    float t0 = (box_lo[a] - origin[a]) / d[a], t1 = (box_hi[a] - origin[a]) / d[a];
    if (t0 > t1) std::swap(t0, t1);
    enter = std::max(enter, t0);
    leave = std::min(leave, t1);
  }
  constexpr float kStep = 0.5f;
  std::optional<float> previous;
  for (float t = enter; t <= leave; t += kStep) {
    const std::optional<float> phi = value_at(list, glm::ivec3(glm::round(origin + t * d)));
    if (phi && *phi < 0.0f) {
      // The crossing between the last stored sample outside and this one.
      const float back = previous && *previous >= 0.0f ? kStep * *phi / (*phi - *previous) : 0.0f;
      return origin + (t - back) * d;
    }
    previous = phi;
  }
  return std::nullopt;
}

}  // namespace meniscus::sim::levelset
