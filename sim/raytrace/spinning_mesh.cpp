#include "sim/raytrace/spinning_mesh.h"

#include <cmath>
#include <string>

#include <glm/common.hpp>
#include <glm/trigonometric.hpp>

#include "engine/core/error.h"

namespace meniscus::sim::raytrace {

void SpinningMeshParams::validate() const {
  if (!(height > 0.0f && height <= 100.0f)) throw InputError("spinning mesh: height must be in (0, 100] m");
  if (up_axis > 2) throw InputError("spinning mesh: up_axis must be x, y or z");
  if (!std::isfinite(spin_degrees_per_second)) throw InputError("spinning mesh: spin_degrees_per_second must be finite");
  view.validate();
}

SpinningMesh::SpinningMesh(const TriangleMesh& mesh, const SpinningMeshParams& params, const std::string& source)
    : params_(params) {
  params.validate();
  if (mesh.triangles.empty()) throw InputError(source + ": no triangles to trace");
  // The mesh's up axis becomes y; the other two keep their cyclic order (a rotation, not a mirror).
  const uint32_t up = params.up_axis, a = (up + 1) % 3, b = (up + 2) % 3;
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  rest_.vertices.reserve(mesh.vertices.size());
  for (const auto& v : mesh.vertices) {
    const glm::vec3 p(v[b], v[up], v[a]);
    rest_.vertices.push_back(p);
    lo = glm::min(lo, p), hi = glm::max(hi, p);
  }
  if (!(hi.y > lo.y)) throw InputError(source + ": the mesh has no extent along its up axis");
  const float scale = params.height / (hi.y - lo.y);
  const glm::vec3 base(0.5f * (lo.x + hi.x), lo.y, 0.5f * (lo.z + hi.z));
  for (glm::vec3& p : rest_.vertices) p = (p - base) * scale;
  rest_.indices.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles) rest_.indices.insert(rest_.indices.end(), t.begin(), t.end());
}

photon::TriangleSoup SpinningMesh::at(double time) const {
  const double angle = glm::radians(double(params_.spin_degrees_per_second) * time);
  const float c = float(std::cos(angle)), s = float(std::sin(angle));
  photon::TriangleSoup turned{rest_.vertices, rest_.indices};
  for (glm::vec3& p : turned.vertices) p = {c * p.x + s * p.z, p.y, -s * p.x + c * p.z};
  return turned;
}

}  // namespace meniscus::sim::raytrace
