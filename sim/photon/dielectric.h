#pragma once
// What happens to light where it meets a dielectric interface, for the ray tracer and the
// photons alike, so that the caustic comes from the surface the view shows: the exact Fresnel
// reflectance and both directions, off the true face or off the interpolated vertex normal of a
// smooth mesh (a scan, an iso-surface) where that normal bends the light plausibly.
// Host-device: the CUDA tracer bends its rays with this same code.
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"
#include "sim/kdtree/triangle_traversal.h"
#include "sim/photon/optics.h"

namespace meniscus::sim::photon {

struct Bounce {
  float reflectance;               // 1: total internal reflection
  glm::vec3 reflected, refracted;  // refracted: zero under total internal reflection
};

// At a surface of unit normal `n` facing the unit direction `d`, from a medium to one `eta`
// times slower (eta = n1 / n2).
MENISCUS_HD inline Bounce bounce_off(const glm::vec3& n, const glm::vec3& d, float eta) {
  const float cos_i = -glm::dot(n, d);
  Bounce b{fresnel_reflectance(cos_i, eta), d + 2.0f * cos_i * n, glm::vec3(0.0f)};
  if (b.reflectance < 1.0f) {
    const float cos_t = std::sqrt(1.0f - eta * eta * (1.0f - cos_i * cos_i));
    b.refracted = eta * d + (eta * cos_i - cos_t) * n;
  }
  return b;
}

// The interpolated vertex normal at `hit` (unit length), turned to the side of `face`; zero
// without normals (null) or where they cancel. `indices`: three per triangle.
MENISCUS_HD inline glm::vec3 shading_normal(const glm::vec3* normals, const uint32_t* indices,
                                            const kdtree::RayHit& hit, const glm::vec3& face) {
  if (!normals) return glm::vec3(0.0f);
  const uint32_t* corner = indices + 3 * size_t(hit.triangle);
  const glm::vec3 smooth =
      (1.0f - hit.u - hit.v) * normals[corner[0]] + hit.u * normals[corner[1]] + hit.v * normals[corner[2]];
  const float length = glm::length(smooth);
  if (!(length > 0.0f)) return glm::vec3(0.0f);
  return glm::dot(smooth, face) < 0.0f ? -smooth / length : smooth / length;
}

// The bounce at `hit` on a triangle of unit normal `face` (facing `d`): by the shading normal
// `smooth` (zero: none) where it reflects back off the face and refracts through it, else by
// the face's own (an interpolated normal bends light the wrong way across a coarse silhouette,
// which would put it in a medium it never entered).
MENISCUS_HD inline Bounce bounce_at(const glm::vec3& face, const glm::vec3& smooth, const glm::vec3& d, float eta) {
  if (glm::dot(smooth, d) < 0.0f) {
    const Bounce shaded = bounce_off(smooth, d, eta);
    if (glm::dot(shaded.reflected, face) > 0.0f &&
        (shaded.reflectance >= 1.0f || glm::dot(shaded.refracted, face) < 0.0f))
      return shaded;
  }
  return bounce_off(face, d, eta);
}

}  // namespace meniscus::sim::photon
