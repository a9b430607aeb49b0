#pragma once
// The paths of the Whitted tracer (whitted_tracer.h), host-device: the CUDA tracer follows a
// pixel's branches depth first, a thread per pixel; the CPU tracer resolves a tile's branches a
// bounce at a time (whitted_waves.h); both with literally this code for every branch. A path
// splits at every surface it meets into the reflected and the refracted ray, up to the bounce
// limit.
//
// `Surface` answers `RayHit closest(const Ray&)` and `bool any(const Ray&)`: the kd-tree's
// traversal on either backend, or any Intersector on the CPU.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"
#include "sim/kdtree/triangle_traversal.h"
#include "sim/photon/dielectric.h"
#include "sim/photon/optics.h"

namespace meniscus::sim::raytrace {

using kdtree::Ray;
using kdtree::RayHit;

// The caustic on the floor as the tracer samples it: irradiance (relative to the sun's) at the
// centres of a grid of cells over [min, max] (x, z), row-major from min.z.
struct CausticSamples {
  glm::vec2 min{0.0f}, max{1.0f};
  uint32_t width = 0, height = 0;
  const float* irradiance = nullptr;  // null: no caustic
};

// A traced scene as the paths read it, in host or device memory (TraceScene documents each).
struct PathScene {
  const uint32_t* indices = nullptr;
  const glm::vec3* normals = nullptr;  // null: flat faces
  photon::OpticsView optics;
  float floor_y = 0.0f, floor_tile = 0.1f;
  glm::vec3 floor_light{0.0f}, floor_dark{0.0f};
  glm::vec3 to_sun{0.0f, 1.0f, 0.0f};  // unit length
  glm::vec3 sun_colour{1.0f}, ambient{0.0f}, sky_horizon{0.0f}, sky_zenith{0.0f};
  CausticSamples caustics;
  uint32_t max_bounces = 2;
  float min_weight = 0.0f;
  float pixel_angle = 0.0f;  // radians per pixel of the primary rays
};

// The camera's rays through an image of width x height pixels, supersample² a pixel on a
// regular grid: through eye + forward + u right + v up, u in ±half_width, v in ±half_height.
struct PrimaryRays {
  glm::vec3 eye{0.0f}, forward{0.0f, 0.0f, -1.0f}, right{1.0f, 0.0f, 0.0f}, up{0.0f, 1.0f, 0.0f};
  float half_width = 1.0f, half_height = 1.0f;
  uint32_t width = 1, height = 1, supersample = 1;

  // Pixel (x, y)'s ray of sample (sx, sy), row 0 at the top.
  MENISCUS_HD Ray through(uint32_t x, uint32_t y, uint32_t sx, uint32_t sy) const {
    const uint32_t n = supersample;
    const float u = ((x + (sx + 0.5f) / n) / width * 2.0f - 1.0f) * half_width;
    const float v = (1.0f - (y + (sy + 0.5f) / n) / height * 2.0f) * half_height;
    return {eye, forward + u * right + v * up};
  }
};

// Rays a path traced beyond its primary ones, and the primary rays that hit the surface.
struct PathCounts {
  uint64_t secondary = 0, shadow = 0, hits = 0;
};

template <class Surface>
class WhittedPath {
 public:
  MENISCUS_HD WhittedPath(const Surface& surface, const PathScene& scene) : surface_(surface), s_(scene) {}

  // A ray still to follow: it travels in `medium`, `depth` bounces from the pixel, and what it
  // sees reaches the pixel times `throughput`; `weight` is the share of the pixel it carries.
  struct Branch {
    Ray ray;
    glm::vec3 throughput;
    float weight;
    uint32_t depth;
    uint8_t medium;
  };

  // The deepest bounce limit a path is traced to (the scenes allow 8).
  static constexpr uint32_t kMaxBounces = 16;
  // The most branches resolve() pushes.
  static constexpr int kSplit = 2;

  // The pixel (x, y)'s radiance, row 0 at the top: the mean of its primary rays.
  MENISCUS_HD glm::vec3 pixel(const PrimaryRays& rays, uint32_t x, uint32_t y) {
    const uint32_t n = rays.supersample;
    glm::vec3 sum(0.0f);
    for (uint32_t sy = 0; sy < n; ++sy)
      for (uint32_t sx = 0; sx < n; ++sx) {
        bool hit = false;
        sum += follow_depth_first(primary(rays.through(x, y, sx, sy)), &hit);
        counts.hits += hit;
      }
    return sum / float(n * n);
  }

  // A primary ray as the branch it starts: from the air, all of its pixel's share.
  MENISCUS_HD static Branch primary(const Ray& ray) { return {ray, glm::vec3(1.0f), 1.0f, 0, 0}; }

  // What arrives along `start` and every branch it splits into, depth first, with the branches
  // still to follow on a stack rather than by recursion (a GPU thread's stack is small);
  // `hit_surface`: whether a primary ray met the surface.
  MENISCUS_HD glm::vec3 follow_depth_first(const Branch& start, bool* hit_surface) {
    Branch pending[kMaxBounces + kSplit];
    int top = 0;
    pending[top++] = start;
    glm::vec3 sum(0.0f);
    while (top > 0) {
      const Branch b = pending[--top];
      sum += resolve(b, surface_.closest(b.ray), pending, top, hit_surface);
    }
    return sum;
  }

  // Branch `b` given its closest hit (found by the caller, one ray or many at a time): what it
  // sees on the floor or in the sky, as seen from the pixel; or, where it meets the surface
  // first, its reflected and refracted branches pushed onto `pending` (at most kSplit) and
  // the sky for those the bounce limit or min_weight ends.
  MENISCUS_HD glm::vec3 resolve(const Branch& b, const RayHit& hit, Branch* pending, int& top, bool* hit_surface) {
    const float t_floor = b.ray.direction.y < 0.0f ? (s_.floor_y - b.ray.origin.y) / b.ray.direction.y : INFINITY;
    if (b.depth == 0) *hit_surface = hit.hit();
    // The floor wins a tie: water standing on it meets it there.
    if (hit.hit() && hit.t < t_floor) return split(b, hit, pending, top);
    const glm::vec3 seen = std::isfinite(t_floor) && t_floor > 0.0f
                               ? floor(b.ray.origin + t_floor * b.ray.direction, footprint(b.ray, t_floor))
                               : sky(b.ray.direction);
    return b.throughput * seen *
           absorbed(b.medium, std::isfinite(t_floor) ? t_floor * glm::length(b.ray.direction) : 0.0f);
  }

  PathCounts counts;

 private:
  static constexpr float kEpsilon = 1e-4f;  // how far a secondary ray starts off the surface

  // Where branch `b` meets the surface at `hit`: its reflected and refracted rays pushed, or
  // the sky they end in at the bounce limit (returned, as seen from the pixel).
  MENISCUS_HD glm::vec3 split(const Branch& b, const RayHit& hit, Branch* pending, int& top) {
    glm::vec3 face = glm::normalize(hit.normal);
    const glm::vec3 d = glm::normalize(b.ray.direction);
    const photon::Crossing crossing = s_.optics.crossing(hit.triangle, face, d, b.medium);
    if (glm::dot(face, d) > 0.0f) face = -face;
    const glm::vec3 point = b.ray.origin + hit.t * b.ray.direction;
    const glm::vec3 attenuation = absorbed(crossing.from, hit.t * glm::length(b.ray.direction));
    const glm::vec3 through = b.throughput * attenuation;
    const float eta = s_.optics.media[crossing.from].ior / s_.optics.media[crossing.to].ior;
    // Secondary rays start off the true face, in the directions the shading normal gives.
    const photon::Bounce bounce =
        photon::bounce_at(face, photon::shading_normal(s_.normals, s_.indices, hit, face), d, eta);
    if (b.depth >= s_.max_bounces) return through * sky(bounce.reflectance >= 1.0f ? bounce.reflected : d);
    const float kept = b.weight * glm::max(attenuation.x, glm::max(attenuation.y, attenuation.z));
    glm::vec3 ended(0.0f);
    // The refracted branch first, so that the reflected one, on top, is followed first.
    if (bounce.reflectance < 1.0f)
      ended += follow({point - kEpsilon * face, bounce.refracted}, through * (1.0f - bounce.reflectance),
                      kept * (1.0f - bounce.reflectance), b.depth + 1, crossing.to, pending, top);
    ended += follow({point + kEpsilon * face, bounce.reflected}, through * bounce.reflectance,
                    kept * bounce.reflectance, b.depth + 1, crossing.from, pending, top);
    return ended;
  }

  // A secondary ray pushed to be followed; one carrying less than min_weight of its pixel ends
  // in the sky along its direction instead (returned, as seen from the pixel).
  MENISCUS_HD glm::vec3 follow(const Ray& ray, const glm::vec3& throughput, float weight, uint32_t depth,
                               uint8_t medium, Branch* pending, int& top) {
    if (weight < s_.min_weight) return throughput * sky(ray.direction);
    ++counts.secondary;
    pending[top++] = {ray, throughput, weight, depth, medium};
    return glm::vec3(0.0f);
  }

  // The size of a pixel's footprint on the floor where `ray` meets it at `t`: the primary
  // pixel's angle times the distance (an underestimate after a bounce), stretched by the
  // grazing angle (the geometric mean of the ellipse's axes).
  MENISCUS_HD float footprint(const Ray& ray, float t) const {
    const float length = glm::length(ray.direction);
    const float cos_incidence = glm::max(std::abs(ray.direction.y) / length, 0.02f);
    return s_.pixel_angle * t * length / std::sqrt(cos_incidence);
  }

  // One sample per pixel cannot resolve tiles smaller than the pixel's footprint, and a distant
  // checker turns to moiré: the checker fades to its mean as the footprint grows from a fifth
  // of a tile to three fifths.
  MENISCUS_HD glm::vec3 floor(const glm::vec3& p, float footprint) {
    const int cell = int(std::floor(p.x / s_.floor_tile)) + int(std::floor(p.z / s_.floor_tile));
    const float fade = glm::smoothstep(0.2f, 0.6f, footprint / s_.floor_tile);
    const glm::vec3 albedo =
        glm::mix((cell & 1) ? s_.floor_dark : s_.floor_light, 0.5f * (s_.floor_dark + s_.floor_light), fade);
    ++counts.shadow;
    const bool lit = !surface_.any({p + kEpsilon * glm::vec3(0, 1, 0), s_.to_sun});
    float sun = lit ? s_.to_sun.y : 0.0f;
    // The caustic is already irradiance on the floor (photons carry the beam's power per
    // horizontal area): no second cosine.
    if (s_.caustics.irradiance) sun += caustic_at(p);
    return albedo * (s_.ambient + sun * s_.sun_colour);
  }

  // The caustic's irradiance, bilinear between the estimates at its cell centres (clamped at
  // its edges), 0 off its grid.
  MENISCUS_HD float caustic_at(const glm::vec3& p) const {
    const CausticSamples& c = s_.caustics;
    const float u = (p.x - c.min.x) / (c.max.x - c.min.x), v = (p.z - c.min.y) / (c.max.y - c.min.y);
    if (!(u >= 0.0f && u < 1.0f && v >= 0.0f && v < 1.0f)) return 0.0f;
    const float x = glm::clamp(u * float(c.width) - 0.5f, 0.0f, float(c.width - 1));
    const float z = glm::clamp(v * float(c.height) - 0.5f, 0.0f, float(c.height - 1));
    const uint32_t x0 = uint32_t(x), z0 = uint32_t(z);
    const uint32_t x1 = glm::min(x0 + 1, c.width - 1), z1 = glm::min(z0 + 1, c.height - 1);
    const float fx = x - float(x0), fz = z - float(z0);
    auto at = [&](uint32_t i, uint32_t j) { return c.irradiance[size_t(j) * c.width + i]; };
    return (1.0f - fz) * ((1.0f - fx) * at(x0, z0) + fx * at(x1, z0)) +
           fz * ((1.0f - fx) * at(x0, z1) + fx * at(x1, z1));
  }

  MENISCUS_HD glm::vec3 sky(const glm::vec3& direction) const {
    const float up = glm::clamp(glm::normalize(direction).y, 0.0f, 1.0f);
    return glm::mix(s_.sky_horizon, s_.sky_zenith, up);
  }

  MENISCUS_HD glm::vec3 absorbed(uint8_t medium, float distance) const {
    const glm::vec3& absorption = s_.optics.media[medium].absorption;
    if (absorption == glm::vec3(0.0f)) return glm::vec3(1.0f);  // the air: no exp per ray
    return glm::exp(-absorption * distance);
  }

  Surface surface_;
  PathScene s_;
};

}  // namespace meniscus::sim::raytrace
