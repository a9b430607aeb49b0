#pragma once
// The bounding box of a triangle clipped to a box (Sutherland–Hodgman against the six planes):
// what the large-node stage of the triangle kd-tree keeps per triangle and node, so that a
// triangle crossing a split bounds each child only by the part inside it. Host-device: the CPU
// and the CUDA builds clip with these very lines.
#include <cmath>
#include <glm/common.hpp>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"

namespace meniscus::sim::kdtree {

struct Box {
  glm::vec3 lo{0.0f}, hi{0.0f};
  // Grows to the first box it meets: the identity of grow().
  MENISCUS_HD static Box inverted() { return {glm::vec3(INFINITY), glm::vec3(-INFINITY)}; }
  MENISCUS_HD float extent(int axis) const { return hi[axis] - lo[axis]; }
  // Half the surface area: the SAH only ever uses ratios of areas.
  MENISCUS_HD float half_area() const {
    const glm::vec3 d = glm::max(hi - lo, glm::vec3(0.0f));
    return d.x * d.y + d.y * d.z + d.z * d.x;
  }
  MENISCUS_HD void grow(const Box& b) {
    lo = glm::min(lo, b.lo);
    hi = glm::max(hi, b.hi);
  }
};

// False when nothing of the triangle lies in `box` (then `out` is unchanged). A triangle
// touching the box only along a face, edge or corner still counts: it can be hit there.
MENISCUS_HD inline bool clipped_bounds(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const Box& box,
                                       Box& out) {
  constexpr int kMax = 9;  // a triangle clipped by six planes has at most nine corners
  glm::vec3 polygon[kMax] = {a, b, c}, next[kMax];
  int count = 3;
  for (int plane = 0; plane < 6 && count > 0; ++plane) {
    const int axis = plane / 2;
    const bool upper = plane % 2 == 1;
    const float bound = upper ? box.hi[axis] : box.lo[axis];
    int kept = 0;
    for (int i = 0; i < count; ++i) {
      const glm::vec3& p = polygon[i];
      const glm::vec3& q = polygon[(i + 1) % count];
      const bool p_in = upper ? p[axis] <= bound : p[axis] >= bound;
      const bool q_in = upper ? q[axis] <= bound : q[axis] >= bound;
      if (p_in && kept < kMax) next[kept++] = p;
      if (p_in != q_in && kept < kMax) {
        const float s = (bound - p[axis]) / (q[axis] - p[axis]);
        glm::vec3 crossing = p + s * (q - p);
        crossing[axis] = bound;  // exactly on the plane, whatever the rounding of s
        next[kept++] = crossing;
      }
    }
    for (int i = 0; i < kept; ++i) polygon[i] = next[i];
    count = kept;
  }
  if (count == 0) return false;
  Box bounds{polygon[0], polygon[0]};
  for (int i = 1; i < count; ++i) bounds.grow({polygon[i], polygon[i]});
  // Rounding in the crossings must not carry the bounds outside the box.
  out.lo = glm::clamp(bounds.lo, box.lo, box.hi);
  out.hi = glm::clamp(bounds.hi, box.lo, box.hi);
  return true;
}

}  // namespace meniscus::sim::kdtree
