#pragma once
// Marching-cubes case tables, generated at start-up rather than transcribed.
//
// Source: for each of the 256 corner classifications the crossing edges on every cube face are
// joined into segments; a face with two diagonal inside corners (the ambiguous case) always
// separates the inside corners. The segments close into loops around the cube, each loop
// becomes a triangle fan oriented so its normal points from inside (f >= iso) to outside.
// Because a face's segments depend only on that face's four corners, the two cells sharing a
// face always cut it the same way: the surface is crack-free, watertight and edge-manifold.
//
// Corner c sits at (c & 1, (c >> 1) & 1, (c >> 2) & 1) — bit 0 is x, bit 1 is y, bit 2 is z —
// and bit c of a case index says that corner is inside.
#include <array>
#include <cstdint>
#include <glm/vec3.hpp>

namespace meniscus::sim::mc {

inline constexpr int kMaxTriangles = 12;  // generous; the generator asserts it holds

struct Case {
  uint8_t triangles = 0;
  uint8_t edges[kMaxTriangles * 3] = {};  // 3 edge ids per triangle
};

struct Edge {
  uint8_t a, b;  // corner ids, a < b; a and b differ in one axis bit
  uint8_t axis;  // 0 = x, 1 = y, 2 = z
};

const std::array<Edge, 12>& edges();

// Corner c's offset from the cell's lowest corner: bit 0 of c is x, bit 1 y, bit 2 z.
inline glm::uvec3 corner_offset(int c) { return {uint32_t(c & 1), uint32_t((c >> 1) & 1), uint32_t((c >> 2) & 1)}; }
const std::array<Case, 256>& cases();
// Largest triangle count over all cases (for buffer sizing).
int max_triangles();

}  // namespace meniscus::sim::mc
