#pragma once
// The closest point of a triangle to a point, and which feature of the triangle it lies on
// (Ericson, Real-Time Collision Detection, §5.1.5). Signing a distance by the angle-weighted
// pseudo-normal of that feature (Bærentzen & Aanæs 2005) is exact for a closed, consistently
// oriented mesh, unlike the face normal, which fails near edges and vertices.
#include <glm/glm.hpp>

namespace meniscus::sim::levelset {

enum class TriangleFeature { Face, VertexA, VertexB, VertexC, EdgeAB, EdgeBC, EdgeCA };

struct ClosestPoint {
  glm::vec3 point;
  TriangleFeature feature;
};

inline ClosestPoint closest_point_on_triangle(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return {a, TriangleFeature::VertexA};
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return {b, TriangleFeature::VertexB};
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return {a + (d1 / (d1 - d3)) * ab, TriangleFeature::EdgeAB};
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return {c, TriangleFeature::VertexC};
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return {a + (d2 / (d2 - d6)) * ac, TriangleFeature::EdgeCA};
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f)
    return {b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b), TriangleFeature::EdgeBC};
  const float denom = 1.0f / (va + vb + vc);
  return {a + ab * (vb * denom) + ac * (vc * denom), TriangleFeature::Face};
}

}  // namespace meniscus::sim::levelset
