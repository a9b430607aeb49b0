// trace_caustic_photons (caustic_photons.h).
#include "sim/photon/caustic_photons.h"

#include <tbb/parallel_for.h>

#include <atomic>
#include <cmath>
#include <glm/geometric.hpp>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_ray.h"
#include "sim/photon/dielectric.h"

namespace meniscus::sim::photon {
namespace {

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

Path follow(const RefractingSurface& surface, glm::vec3 origin, glm::vec3 direction, float floor_y,
            uint32_t max_crossings, PhotonRandom& random) {
  uint8_t medium = 0;
  uint32_t crossings = 0;
  for (;;) {
    kdtree::Ray ray{origin, direction, 1e-5f};
    const kdtree::RayHit hit = kdtree::trace_closest(*surface.tree, ray);
    // The floor, where the ray meets it before the surface.
    const float t_floor = direction.y < 0.0f ? (floor_y - origin.y) / direction.y : INFINITY;
    if (!hit.hit() || t_floor < hit.t) {
      if (!std::isfinite(t_floor) || medium != 0) return {Fate::kEscaped};  // not in air: a mesh was not closed
      return {crossings == 0 ? Fate::kDirect : Fate::kStored, origin + t_floor * direction};
    }
    if (++crossings > max_crossings) return {Fate::kDropped};
    glm::vec3 face = glm::normalize(hit.normal);
    const Crossing crossing = surface.optics->crossing(hit.triangle, face, direction, medium);
    if (glm::dot(face, direction) > 0.0f) face = -face;  // facing the photon
    const float eta = surface.optics->media[crossing.from].ior / surface.optics->media[crossing.to].ior;
    const glm::vec3 smooth =
        shading_normal(surface.normals.empty() ? nullptr : surface.normals.data(), surface.indices.data(), hit, face);
    const Bounce bounce = bounce_at(face, smooth, direction, eta);
    origin += hit.t * direction;
    if (random.unit() < bounce.reflectance) {
      direction = glm::normalize(bounce.reflected);
      medium = crossing.from;
    } else {
      direction = glm::normalize(bounce.refracted);
      medium = crossing.to;
    }
  }
}

void validate(const RefractingSurface& surface, const Sun& sun, float floor_y) {
  if (!surface.tree) throw InputError("caustic photons: no kd-tree for the refracting surface");
  if (!surface.optics) throw InputError("caustic photons: no optics for the refracting surface");
  surface.optics->validate(surface.indices.size() / 3);
  if (!surface.normals.empty() && surface.normals.size() != surface.vertices.size())
    throw InputError("caustic photons: " + std::to_string(surface.normals.size()) + " normals for " +
                     std::to_string(surface.vertices.size()) + " vertices");
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

CausticPhotons trace_caustic_photons(const RefractingSurface& surface, const Sun& sun, float floor_y,
                                     const PhotonParams& params) {
  validate(surface, sun, floor_y);
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
    paths[i] = follow(surface, start, direction, floor_y, params.max_crossings, random);
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
