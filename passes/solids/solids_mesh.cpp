#include "passes/solids/solids_mesh.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

namespace meniscus::passes {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr uint32_t kPipeSegments = 64;

using Polygon = std::vector<glm::vec3>;

class MeshWriter {
 public:
  MeshWriter(std::vector<SolidVertex>& out, const SolidShape& shape) : out_(out), shape_(shape) {}

  void vertex(glm::vec3 p, glm::vec3 n, float occlusion = 1.0f, glm::vec4 panel = glm::vec4(0.0f)) {
    const float kind = float(shape_.material.kind);
    const float w = shape_.material.kind == SolidMaterial::Kind::Glass ? shape_.thickness : shape_.material.roughness;
    out_.push_back({glm::vec4(p, kind), glm::vec4(n, occlusion), glm::vec4(shape_.material.color, w), panel});
  }

  // A convex polygon, fanned from its first corner.
  void polygon(const Polygon& corners, glm::vec3 n) {
    for (size_t i = 1; i + 1 < corners.size(); ++i) {
      vertex(corners[0], n);
      vertex(corners[i], n);
      vertex(corners[i + 1], n);
    }
  }

  // A glass panel spanned by `u` and `v` from `origin`: its own (u, v) coordinates travel with
  // it so the shader knows how far each fragment is from the panel's edges.
  void panel(glm::vec3 origin, glm::vec3 u, glm::vec3 v, glm::vec3 n, bool edge_on = false) {
    const float w = glm::length(u), h = glm::length(v);
    const glm::vec2 size = edge_on ? glm::vec2(0.0f) : glm::vec2(w, h);
    auto corner = [&](float a, float b) { vertex(origin + a * u + b * v, n, 1.0f, glm::vec4(a * w, b * h, size)); };
    corner(0, 0), corner(1, 0), corner(1, 1);
    corner(0, 0), corner(1, 1), corner(0, 1);
  }

 private:
  std::vector<SolidVertex>& out_;
  const SolidShape& shape_;
};

// The corners of the box face on side `sign` of `axis`, in order around it.
Polygon box_face(glm::vec3 lo, glm::vec3 hi, int axis, float sign) {
  const int a = (axis + 1) % 3, b = (axis + 2) % 3;
  Polygon face;
  for (const glm::vec2 c : {glm::vec2(0, 0), glm::vec2(1, 0), glm::vec2(1, 1), glm::vec2(0, 1)}) {
    glm::vec3 p;
    p[axis] = sign > 0 ? hi[axis] : lo[axis];
    p[a] = c.x > 0 ? hi[a] : lo[a];
    p[b] = c.y > 0 ? hi[b] : lo[b];
    face.push_back(p);
  }
  return face;
}

glm::vec3 axis_normal(int axis, float sign) {
  glm::vec3 n(0.0f);
  n[axis] = sign;
  return n;
}

void add_box(MeshWriter& mesh, glm::vec3 lo, glm::vec3 hi) {
  for (int axis = 0; axis < 3; ++axis)
    for (const float sign : {-1.0f, 1.0f}) mesh.polygon(box_face(lo, hi, axis, sign), axis_normal(axis, sign));
}

// Where the plane crosses the edge a-b, computed the same whichever way the edge is walked, so
// adjoining faces (and the cap built from their points) meet without a crack.
glm::vec3 crossing(glm::vec3 a, glm::vec3 b, float da, float db) {
  if (std::tie(a.x, a.y, a.z) > std::tie(b.x, b.y, b.z)) {
    std::swap(a, b);
    std::swap(da, db);
  }
  return a + (b - a) * (da / (da - db));
}

// Sutherland-Hodgman against one half-space: keeps the part where dot(n, p) <= d.
Polygon clip(const Polygon& polygon, glm::vec3 n, float d) {
  Polygon out;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const glm::vec3 a = polygon[i], b = polygon[(i + 1) % polygon.size()];
    const float da = glm::dot(n, a) - d, db = glm::dot(n, b) - d;
    const bool keep_a = da <= 0.0f, keep_b = db <= 0.0f;
    if (keep_a) out.push_back(a);
    if (keep_a != keep_b) out.push_back(crossing(a, b, da, db));
  }
  return out;
}

float area(const Polygon& polygon) {
  glm::vec3 sum(0.0f);
  for (size_t i = 1; i + 1 < polygon.size(); ++i)
    sum += glm::cross(polygon[i] - polygon[0], polygon[i + 1] - polygon[0]);
  return 0.5f * glm::length(sum);
}

// The box cut by the half-space: every box face clipped to it, and the cap where the plane
// crosses the box, made of exactly the points the clipped faces put on the plane (so the solid
// is closed). A face lying in the plane is left to the cap, so the two never fight over depth.
void add_half_space(MeshWriter& mesh, const SolidShape& shape) {
  const glm::vec3 n = shape.normal;
  const float d = glm::dot(n, shape.point);
  const float eps = 1e-5f * std::max(glm::length(shape.max - shape.min), 1.0f);
  auto on_plane = [&](glm::vec3 p) { return std::abs(glm::dot(n, p) - d) < eps; };
  Polygon cap;
  for (int axis = 0; axis < 3; ++axis)
    for (const float sign : {-1.0f, 1.0f}) {
      const Polygon face = clip(box_face(shape.min, shape.max, axis, sign), n, d);
      for (const glm::vec3 p : face)
        if (on_plane(p) && std::find(cap.begin(), cap.end(), p) == cap.end()) cap.push_back(p);
      if (face.size() >= 3 && !std::all_of(face.begin(), face.end(), on_plane) && area(face) > eps * eps)
        mesh.polygon(face, axis_normal(axis, sign));
    }
  if (cap.size() < 3) return;
  // The cap's corners in order around their centre, in a basis of the plane.
  glm::vec3 centre(0.0f);
  for (const glm::vec3 p : cap) centre += p / float(cap.size());
  const glm::vec3 helper = std::abs(n.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
  const glm::vec3 u = glm::normalize(glm::cross(helper, n)), v = glm::cross(n, u);
  std::sort(cap.begin(), cap.end(), [&](glm::vec3 a, glm::vec3 b) {
    return std::atan2(glm::dot(a - centre, v), glm::dot(a - centre, u)) <
           std::atan2(glm::dot(b - centre, v), glm::dot(b - centre, u));
  });
  if (area(cap) > eps * eps) mesh.polygon(cap, n);
}

// Open-topped: four walls and a floor, each the outer face of a slab `thickness` thick, and the
// walls' top edges (seen edge-on, so glass all the way through) as a rim.
void add_tank(MeshWriter& mesh, const SolidShape& shape) {
  const float t = shape.thickness;
  const glm::vec3 lo = shape.min - glm::vec3(t), hi = shape.max + glm::vec3(t, 0.0f, t);
  const glm::vec3 size = hi - lo;
  const glm::vec3 x(size.x, 0, 0), y(0, size.y, 0), z(0, 0, size.z);
  mesh.panel(lo, z, y, {-1, 0, 0});
  mesh.panel(lo + x, z, y, {1, 0, 0});
  mesh.panel(lo, x, y, {0, 0, -1});
  mesh.panel(lo + z, x, y, {0, 0, 1});
  mesh.panel(lo, x, z, {0, -1, 0});
  const float top = shape.max.y;
  const glm::vec3 up(0, 1, 0);
  const glm::vec3 inner = shape.max - shape.min;
  mesh.panel({lo.x, top, lo.z}, x, {0, 0, t}, up, true);
  mesh.panel({lo.x, top, shape.max.z}, x, {0, 0, t}, up, true);
  mesh.panel({lo.x, top, shape.min.z}, {t, 0, 0}, {0, 0, inner.z}, up, true);
  mesh.panel({shape.max.x, top, shape.min.z}, {t, 0, 0}, {0, 0, inner.z}, up, true);
}

// A tube: outer wall, bore (darkening with depth, as little sky reaches it), the annular lip
// at the mouth that shows the wall's thickness, and a closed far end.
void add_pipe(MeshWriter& mesh, const SolidShape& shape) {
  const glm::vec3 d = glm::normalize(shape.direction);
  const glm::vec3 helper = std::abs(d.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
  const glm::vec3 u = glm::normalize(glm::cross(helper, d));
  const glm::vec3 w = glm::cross(d, u);
  const float inner = shape.radius, outer = shape.radius + shape.thickness;
  const glm::vec3 mouth = shape.center, back = shape.center - d * shape.length;
  auto radial = [&](uint32_t i) {
    const float a = 2.0f * kPi * float(i % kPipeSegments) / float(kPipeSegments);
    return std::cos(a) * u + std::sin(a) * w;
  };
  // Rings along the bore where the occlusion is sampled (it falls off over about a radius).
  std::vector<float> depths{0.0f};
  for (const float f : {0.25f, 0.5f, 1.0f, 2.0f, 4.0f})
    if (f * inner < shape.length) depths.push_back(f * inner);
  depths.push_back(shape.length);
  auto occlusion = [&](float depth) { return 0.1f + 0.75f * std::exp(-depth / inner); };

  for (uint32_t i = 0; i < kPipeSegments; ++i) {
    const glm::vec3 r0 = radial(i), r1 = radial(i + 1);
    // Outer wall.
    mesh.vertex(mouth + outer * r0, r0), mesh.vertex(back + outer * r0, r0), mesh.vertex(back + outer * r1, r1);
    mesh.vertex(mouth + outer * r0, r0), mesh.vertex(back + outer * r1, r1), mesh.vertex(mouth + outer * r1, r1);
    // Bore, normals inwards.
    for (size_t k = 0; k + 1 < depths.size(); ++k) {
      const glm::vec3 a = mouth - d * depths[k], b = mouth - d * depths[k + 1];
      const float oa = occlusion(depths[k]), ob = occlusion(depths[k + 1]);
      mesh.vertex(a + inner * r0, -r0, oa), mesh.vertex(b + inner * r1, -r1, ob), mesh.vertex(b + inner * r0, -r0, ob);
      mesh.vertex(a + inner * r0, -r0, oa), mesh.vertex(a + inner * r1, -r1, oa), mesh.vertex(b + inner * r1, -r1, ob);
    }
    // Lip.
    mesh.vertex(mouth + inner * r0, d), mesh.vertex(mouth + outer * r0, d), mesh.vertex(mouth + outer * r1, d);
    mesh.vertex(mouth + inner * r0, d), mesh.vertex(mouth + outer * r1, d), mesh.vertex(mouth + inner * r1, d);
    // Far end.
    mesh.vertex(back, -d), mesh.vertex(back + outer * r1, -d), mesh.vertex(back + outer * r0, -d);
  }
}

void add_shape(std::vector<SolidVertex>& out, const SolidShape& shape) {
  MeshWriter mesh(out, shape);
  switch (shape.kind) {
    case SolidShape::Kind::Box: add_box(mesh, shape.min, shape.max); break;
    case SolidShape::Kind::Plane: add_half_space(mesh, shape); break;
    case SolidShape::Kind::Tank: add_tank(mesh, shape); break;
    case SolidShape::Kind::Pipe: add_pipe(mesh, shape); break;
  }
}

}  // namespace

SolidsMesh build_solids_mesh(const std::vector<SolidShape>& shapes) {
  SolidsMesh mesh;
  for (const SolidShape& shape : shapes)
    if (shape.opaque()) add_shape(mesh.vertices, shape);
  mesh.opaque_count = uint32_t(mesh.vertices.size());
  for (const SolidShape& shape : shapes)
    if (!shape.opaque()) add_shape(mesh.vertices, shape);
  mesh.glass_count = uint32_t(mesh.vertices.size()) - mesh.opaque_count;
  if (!mesh.vertices.empty()) {
    mesh.bounds_min = mesh.bounds_max = glm::vec3(mesh.vertices[0].position);
    for (const SolidVertex& v : mesh.vertices) {
      mesh.bounds_min = glm::min(mesh.bounds_min, glm::vec3(v.position));
      mesh.bounds_max = glm::max(mesh.bounds_max, glm::vec3(v.position));
    }
  }
  return mesh;
}

}  // namespace meniscus::passes
