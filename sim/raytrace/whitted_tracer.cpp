// trace_image (whitted_tracer.h).
#include "sim/raytrace/whitted_tracer.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <glm/common.hpp>
#include <glm/exponential.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <string>

#include "engine/core/error.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/dielectric.h"

namespace meniscus::sim::raytrace {
namespace {

constexpr float kEpsilon = 1e-4f;  // how far a secondary ray starts off the surface

// Rays traced beyond the primary ones. Each row counts its own and adds them once: an atomic
// counter shared by every ray bounced its cache line between the threads on every ray.
struct RayCounts {
  uint64_t secondary = 0, shadow = 0;
};

class Tracer {
 public:
  explicit Tracer(const TraceScene& scene) : s_(scene), to_sun_(glm::normalize(scene.to_sun)) {}

  // What arrives along `ray`, which travels in `medium` and carries `weight` of its pixel.
  glm::vec3 radiance(const Ray& ray, uint32_t depth, uint8_t medium, float weight, bool* hit_surface) {
    const RayHit hit = s_.surface->closest(ray);
    const float t_floor = ray.direction.y < 0.0f ? (s_.floor_y - ray.origin.y) / ray.direction.y : INFINITY;
    if (hit_surface) *hit_surface = hit.hit();
    // The floor wins a tie: water standing on it meets it there.
    if (hit.hit() && hit.t < t_floor) return through_surface(ray, hit, depth, medium, weight);
    const glm::vec3 seen = std::isfinite(t_floor) && t_floor > 0.0f
                               ? floor(ray.origin + t_floor * ray.direction, footprint(ray, t_floor))
                               : sky(ray.direction);
    return seen * absorbed(medium, std::isfinite(t_floor) ? t_floor * glm::length(ray.direction) : 0.0f);
  }

 private:
  glm::vec3 through_surface(const Ray& ray, const RayHit& hit, uint32_t depth, uint8_t medium, float weight) {
    glm::vec3 face = glm::normalize(hit.normal);
    const glm::vec3 d = glm::normalize(ray.direction);
    const photon::Crossing crossing = s_.optics->crossing(hit.triangle, face, d, medium);
    if (glm::dot(face, d) > 0.0f) face = -face;
    const glm::vec3 point = ray.origin + hit.t * ray.direction;
    const glm::vec3 attenuation = absorbed(crossing.from, hit.t * glm::length(ray.direction));
    const float eta = s_.optics->media[crossing.from].ior / s_.optics->media[crossing.to].ior;
    // Secondary rays start off the true face, in the directions the shading normal gives.
    const photon::Bounce bounce =
        photon::bounce_at(face, photon::shading_normal(s_.normals, s_.indices, hit, face), d, eta);
    if (depth >= max_depth_) return attenuation * sky(bounce.reflectance >= 1.0f ? bounce.reflected : d);
    const float kept = weight * std::max({attenuation.x, attenuation.y, attenuation.z});
    glm::vec3 colour = bounce.reflectance * follow(point + kEpsilon * face, bounce.reflected, depth, crossing.from,
                                                   kept * bounce.reflectance);
    if (bounce.reflectance < 1.0f)
      colour += (1.0f - bounce.reflectance) * follow(point - kEpsilon * face, bounce.refracted, depth, crossing.to,
                                                     kept * (1.0f - bounce.reflectance));
    return attenuation * colour;
  }

  glm::vec3 follow(const glm::vec3& origin, const glm::vec3& direction, uint32_t depth, uint8_t medium, float weight) {
    if (weight < min_weight_) return sky(direction);
    ++counts.secondary;
    return radiance({origin, direction}, depth + 1, medium, weight, nullptr);
  }

  // The size of a pixel's footprint on the floor where `ray` meets it at `t`: the primary
  // pixel's angle times the distance (an underestimate after a bounce), stretched by the
  // grazing angle (the geometric mean of the ellipse's axes).
  float footprint(const Ray& ray, float t) const {
    const float length = glm::length(ray.direction);
    const float cos_incidence = std::max(std::abs(ray.direction.y) / length, 0.02f);
    return pixel_angle_ * t * length / std::sqrt(cos_incidence);
  }

  // One sample per pixel cannot resolve tiles smaller than the pixel's footprint, and a distant
  // checker turns to moiré: the checker fades to its mean as the footprint grows from a fifth
  // of a tile to three fifths.
  glm::vec3 floor(const glm::vec3& p, float footprint) {
    const int cell = int(std::floor(p.x / s_.floor_tile)) + int(std::floor(p.z / s_.floor_tile));
    const float fade = glm::smoothstep(0.2f, 0.6f, footprint / s_.floor_tile);
    const glm::vec3 albedo =
        glm::mix((cell & 1) ? s_.floor_dark : s_.floor_light, 0.5f * (s_.floor_dark + s_.floor_light), fade);
    ++counts.shadow;
    const bool lit = !s_.surface->any({p + kEpsilon * glm::vec3(0, 1, 0), to_sun_});
    float sun = lit ? to_sun_.y : 0.0f;
    // The caustic is already irradiance on the floor (photons carry the beam's power per
    // horizontal area): no second cosine.
    if (s_.caustics) sun += caustic_at(p);
    return albedo * (s_.ambient + sun * s_.sun_colour);
  }

  // The caustic image's irradiance (relative to the sun's), bilinear between the estimates at
  // its pixel centres (clamped at its edges), 0 off its grid.
  float caustic_at(const glm::vec3& p) const {
    const photon::FloorGrid& g = s_.caustics->grid;
    const float u = (p.x - g.min.x) / (g.max.x - g.min.x), v = (p.z - g.min.y) / (g.max.y - g.min.y);
    if (!(u >= 0.0f && u < 1.0f && v >= 0.0f && v < 1.0f)) return 0.0f;
    const float x = std::clamp(u * float(g.width) - 0.5f, 0.0f, float(g.width - 1));
    const float z = std::clamp(v * float(g.height) - 0.5f, 0.0f, float(g.height - 1));
    const uint32_t x0 = uint32_t(x), z0 = uint32_t(z);
    const uint32_t x1 = std::min(x0 + 1, g.width - 1), z1 = std::min(z0 + 1, g.height - 1);
    const float fx = x - float(x0), fz = z - float(z0);
    const photon::CausticImage& c = *s_.caustics;
    return (1.0f - fz) * ((1.0f - fx) * c.at(x0, z0) + fx * c.at(x1, z0)) + fz * ((1.0f - fx) * c.at(x0, z1) + fx * c.at(x1, z1));
  }

  glm::vec3 sky(const glm::vec3& direction) const {
    const float up = std::clamp(glm::normalize(direction).y, 0.0f, 1.0f);
    return glm::mix(s_.sky_horizon, s_.sky_zenith, up);
  }

  glm::vec3 absorbed(uint8_t medium, float distance) const {
    const glm::vec3& absorption = s_.optics->media[medium].absorption;
    if (absorption == glm::vec3(0.0f)) return glm::vec3(1.0f);  // the air: no exp per ray
    return glm::exp(-absorption * distance);
  }

  const TraceScene& s_;
  glm::vec3 to_sun_;

 public:
  RayCounts counts;
  uint32_t max_depth_ = 2;
  float min_weight_ = 0.0f;
  float pixel_angle_ = 0.0f;  // radians per pixel of the primary rays
};

}  // namespace

TraceImage trace_image(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params) {
  if (params.width == 0 || params.height == 0) throw InputError("ray tracer: the image is empty");
  if (params.supersample < 1 || params.supersample > 8) throw InputError("ray tracer: supersample must be 1..8");
  if (!(params.min_weight >= 0.0f && params.min_weight <= 1.0f))
    throw InputError("ray tracer: min_weight must be in [0, 1]");
  if (!scene.normals.empty() && scene.normals.size() != scene.vertices.size())
    throw InputError("ray tracer: " + std::to_string(scene.normals.size()) + " normals for " +
                     std::to_string(scene.vertices.size()) + " vertices");
  if (!scene.surface) throw InputError("ray tracer: no surface to trace");
  if (!scene.optics) throw InputError("ray tracer: no optics for the surface");
  scene.optics->validate(scene.indices.size() / 3);
  const glm::vec3 forward_raw = camera.target - camera.eye;
  if (!(glm::length(forward_raw) > 0.0f) || !(camera.fov_y_degrees > 0.0f && camera.fov_y_degrees < 180.0f))
    throw InputError("ray tracer: the camera needs a target away from its eye and a field of view in (0, 180) degrees");
  const auto start = std::chrono::steady_clock::now();
  const glm::vec3 forward = glm::normalize(forward_raw);
  const glm::vec3 world_up = std::abs(forward.y) > 0.999f ? glm::vec3(0, 0, 1) : glm::vec3(0, 1, 0);
  const glm::vec3 right = glm::normalize(glm::cross(forward, world_up));
  const glm::vec3 up = glm::cross(right, forward);
  const float half_height = std::tan(glm::radians(camera.fov_y_degrees) * 0.5f);
  const float half_width = half_height * float(params.width) / float(params.height);

  TraceImage image;
  image.width = params.width;
  image.height = params.height;
  image.rgb.resize(size_t(params.width) * params.height);
  std::atomic<uint64_t> hits{0}, secondary{0}, shadow{0};
  Tracer tracer(scene);
  tracer.max_depth_ = params.max_bounces;
  tracer.min_weight_ = params.min_weight;
  const uint32_t n = params.supersample;
  tracer.pixel_angle_ = 2.0f * half_height / float(params.height * n);
  tbb::parallel_for(uint32_t(0), params.height, [&](uint32_t y) {
    Tracer row = tracer;
    uint64_t row_hits = 0;
    for (uint32_t x = 0; x < params.width; ++x) {
      glm::vec3 sum(0.0f);
      for (uint32_t sy = 0; sy < n; ++sy)
        for (uint32_t sx = 0; sx < n; ++sx) {
          const float u = ((x + (sx + 0.5f) / n) / params.width * 2.0f - 1.0f) * half_width;
          const float v = (1.0f - (y + (sy + 0.5f) / n) / params.height * 2.0f) * half_height;
          bool hit = false;
          sum += row.radiance({camera.eye, forward + u * right + v * up}, 0, 0, 1.0f, &hit);
          row_hits += hit;
        }
      image.rgb[size_t(y) * params.width + x] = sum / float(n * n);
    }
    hits += row_hits;
    secondary += row.counts.secondary;
    shadow += row.counts.shadow;
  });
  image.stats.primary = uint64_t(params.width) * params.height * n * n;
  image.stats.secondary = secondary;
  image.stats.shadow = shadow;
  image.stats.hits = hits;
  image.stats.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return image;
}

}  // namespace meniscus::sim::raytrace
