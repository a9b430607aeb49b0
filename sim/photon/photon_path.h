#pragma once
// One caustic photon's path (caustic_photons.h), host-device: the CPU backend runs photons on
// TBB, the CUDA backend a thread each, with literally this code, so both store the same photons.
//
// `Surface` answers `RayHit closest(const Ray&)`: the kd-tree's traversal
// (kdtree::TriangleKdSurface) on either backend.
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "sim/common/host_device.h"
#include "sim/kdtree/triangle_traversal.h"
#include "sim/photon/dielectric.h"
#include "sim/photon/optics.h"

namespace meniscus::sim::photon {

// Photon i's own random stream: SplitMix64 from (seed, i). Seeding a Mersenne twister per
// photon filled 312 words of state each time, and cost more than the photon's whole path.
class PhotonRandom {
 public:
  MENISCUS_HD PhotonRandom(uint64_t seed, uint64_t photon) : state_(seed * 0x9E3779B97F4A7C15ull + photon) {}
  // Uniform in [0, 1): the top 24 bits, every value a float represents exactly.
  MENISCUS_HD float unit() { return float(next() >> 40) * 0x1.0p-24f; }

 private:
  MENISCUS_HD uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

enum class PhotonFate : uint32_t { kStored, kDirect, kEscaped, kDropped };

struct PhotonPath {
  glm::vec3 landing{0.0f};
  PhotonFate fate = PhotonFate::kEscaped;
};

// Where photons start and what they cross, as the paths read it (host or device memory).
struct PhotonScene {
  const uint32_t* indices = nullptr;   // three per triangle
  const glm::vec3* normals = nullptr;  // per vertex, or null: flat faces
  OpticsView optics;
  float floor_y = 0.0f;
  uint32_t max_crossings = 16;
  // The sun: parallel photons from the rectangle emit_min + [0, emit_size] (x, z) at emit_y.
  glm::vec3 direction{0.0f, -1.0f, 0.0f};  // unit length
  glm::vec2 emit_min{0.0f}, emit_size{1.0f};
  float emit_y = 1.0f;
  uint64_t seed = 1;
};

// Photon `i`'s path from the sun through the surface to where it lands.
template <class Surface>
MENISCUS_HD PhotonPath trace_photon(const Surface& surface, const PhotonScene& scene, uint32_t i) {
  PhotonRandom random(scene.seed, i);
  const float u = random.unit(), v = random.unit();
  glm::vec3 origin{scene.emit_min.x + u * scene.emit_size.x, scene.emit_y, scene.emit_min.y + v * scene.emit_size.y};
  glm::vec3 direction = scene.direction;
  uint8_t medium = 0;
  uint32_t crossings = 0;
  for (;;) {
    const kdtree::RayHit hit = surface.closest(kdtree::Ray{origin, direction, 1e-5f});
    // The floor, where the ray meets it before the surface.
    const float t_floor = direction.y < 0.0f ? (scene.floor_y - origin.y) / direction.y : INFINITY;
    if (!hit.hit() || t_floor < hit.t) {
      // Not in the air: a mesh was not closed.
      if (!std::isfinite(t_floor) || medium != 0) return {glm::vec3(0.0f), PhotonFate::kEscaped};
      return {origin + t_floor * direction, crossings == 0 ? PhotonFate::kDirect : PhotonFate::kStored};
    }
    if (++crossings > scene.max_crossings) return {glm::vec3(0.0f), PhotonFate::kDropped};
    glm::vec3 face = glm::normalize(hit.normal);
    const Crossing crossing = scene.optics.crossing(hit.triangle, face, direction, medium);
    if (glm::dot(face, direction) > 0.0f) face = -face;  // facing the photon
    const float eta = scene.optics.media[crossing.from].ior / scene.optics.media[crossing.to].ior;
    const Bounce bounce = bounce_at(face, shading_normal(scene.normals, scene.indices, hit, face), direction, eta);
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

}  // namespace meniscus::sim::photon
