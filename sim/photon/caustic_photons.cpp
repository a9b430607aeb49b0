// trace_caustic_photons (caustic_photons.h).
#include "sim/photon/caustic_photons.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_ray.h"

namespace meniscus::sim::photon {
namespace {

// Fraction of light reflected at a dielectric interface: the exact Fresnel equations for
// unpolarised light, from the cosine of incidence and the ratio eta = n1 / n2. 1 past the
// critical angle (total internal reflection).
float fresnel_reflectance(float cos_i, float eta) {
  const float sin2_t = eta * eta * (1.0f - cos_i * cos_i);
  if (sin2_t >= 1.0f) return 1.0f;
  const float cos_t = std::sqrt(1.0f - sin2_t);
  const float r_s = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
  const float r_p = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
  return 0.5f * (r_s * r_s + r_p * r_p);
}

// Photon i's own random stream: SplitMix64 from (seed, i). Seeding a Mersenne twister per
// photon filled 312 words of state each time, and cost more than the photon's whole path.
class PhotonRandom {
 public:
  PhotonRandom(uint64_t seed, uint64_t photon) : state_(seed * 0x9E3779B97F4A7C15ull + photon) {}
  // Uniform in [0, 1): the top 24 bits, every value a float represents exactly.
  float unit() { return float(next() >> 40) * 0x1.0p-24f; }

 private:
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

enum class Fate { kStored, kDirect, kEscaped, kDropped };

struct Path {
  Fate fate = Fate::kEscaped;
  glm::vec3 landing{0.0f};
};

Path follow(const WaterSurface& water, glm::vec3 origin, glm::vec3 direction, float floor_y, uint32_t max_crossings,
            PhotonRandom& random) {
  bool inside = false;
  uint32_t crossings = 0;
  for (;;) {
    kdtree::Ray ray{origin, direction, 1e-5f};
    const kdtree::RayHit hit = kdtree::trace_closest(*water.tree, ray);
    // The floor, where the ray meets it before the water.
    const float t_floor = direction.y < 0.0f ? (floor_y - origin.y) / direction.y : INFINITY;
    if (!hit.hit() || t_floor < hit.t) {
      if (!std::isfinite(t_floor) || inside) return {Fate::kEscaped};  // inside: the mesh was not closed
      return {crossings == 0 ? Fate::kDirect : Fate::kStored, origin + t_floor * direction};
    }
    if (++crossings > max_crossings) return {Fate::kDropped};
    const uint32_t t = hit.triangle;
    const glm::vec3 a = water.vertices[water.indices[3 * t]], b = water.vertices[water.indices[3 * t + 1]],
                    c = water.vertices[water.indices[3 * t + 2]];
    glm::vec3 normal = glm::normalize(glm::cross(b - a, c - a));
    if (glm::dot(normal, direction) > 0.0f) normal = -normal;  // facing the photon
    const float cos_i = -glm::dot(normal, direction);
    const float eta = inside ? water.ior : 1.0f / water.ior;
    origin += hit.t * direction;
    if (random.unit() < fresnel_reflectance(cos_i, eta)) {
      direction = glm::normalize(direction + 2.0f * cos_i * normal);
    } else {
      const float cos_t = std::sqrt(1.0f - eta * eta * (1.0f - cos_i * cos_i));
      direction = glm::normalize(eta * direction + (eta * cos_i - cos_t) * normal);
      inside = !inside;
    }
  }
}

void validate(const WaterSurface& water, const Sun& sun, float floor_y) {
  if (!water.tree) throw InputError("caustic photons: no kd-tree for the water surface");
  if (!(water.ior > 0.0f && std::isfinite(water.ior))) throw InputError("caustic photons: ior must be finite and > 0");
  const glm::vec3& d = sun.direction;
  if (!(std::isfinite(d.x) && std::isfinite(d.y) && std::isfinite(d.z)) || !(d.y < 0.0f))
    throw InputError("caustic photons: the sun's direction must be finite and point downwards (y < 0)");
  if (!(sun.emit_max.x > sun.emit_min.x && sun.emit_max.y > sun.emit_min.y))
    throw InputError("caustic photons: the sun's emitting rectangle is empty");
  if (!(sun.emit_y > floor_y)) throw InputError("caustic photons: the floor must lie below the sun's emitter");
  if (!(sun.irradiance >= 0.0f && std::isfinite(sun.irradiance)))
    throw InputError("caustic photons: irradiance must be finite and >= 0");
}

}  // namespace

CausticPhotons trace_caustic_photons(const WaterSurface& water, const Sun& sun, float floor_y, const PhotonParams& params) {
  validate(water, sun, floor_y);
  const glm::vec3 direction = glm::normalize(sun.direction);
  const glm::vec2 size = sun.emit_max - sun.emit_min;
  // The rectangle is horizontal; parallel light crosses it at cos = |direction.y|.
  const float power = sun.irradiance * size.x * size.y * -direction.y;
  const uint32_t n = params.photons;
  std::vector<Path> paths(n);
  tbb::parallel_for(uint32_t(0), n, [&](uint32_t i) {
    PhotonRandom random(params.seed, i);
    const float u = random.unit(), v = random.unit();
    const glm::vec3 start{sun.emit_min.x + u * size.x, sun.emit_y, sun.emit_min.y + v * size.y};
    paths[i] = follow(water, start, direction, floor_y, params.max_crossings, random);
  });
  CausticPhotons out;
  out.emitted = n;
  out.power_per_photon = n ? power / float(n) : 0.0f;
  for (const Path& p : paths) {
    switch (p.fate) {
      case Fate::kStored: out.positions.push_back(p.landing); break;
      case Fate::kDirect: ++out.direct; break;
      case Fate::kEscaped: ++out.escaped; break;
      case Fate::kDropped: ++out.dropped; break;
    }
  }
  out.stored = uint32_t(out.positions.size());
  return out;
}

}  // namespace meniscus::sim::photon
