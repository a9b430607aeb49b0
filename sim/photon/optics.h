#pragma once
// The media a traced scene is made of and which two each triangle separates. Rays (the camera's
// and the sun's photons) start in medium 0, the air. Plain C++17 and host-device where a tracer
// reads it (OpticsView), for the CUDA tracer too.
//
// Two ways to say it, which a scene may mix:
//   - a closed mesh of water in air whose winding is not known to face out (a scan, an
//     iso-surface): crossing one of its triangles toggles between media 0 and 1 (no
//     per-triangle interfaces at all, or the interface kToggleAirWater);
//   - several media touching (water in a glass tank): each triangle names an interface, whose
//     front medium lies on the side its normal cross(b - a, c - a) points to. Where two media
//     meet there is one triangle, not one per medium, so a ray crosses from one straight into
//     the other.
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <vector>

#include "sim/common/host_device.h"

namespace meniscus::sim::photon {

struct Medium {
  float ior = 1.0f;
  glm::vec3 absorption{0.0f};  // Beer–Lambert extinction per unit length, per channel
};

inline constexpr Medium kAir{1.0f, {0.0f, 0.0f, 0.0f}};
inline constexpr Medium kWater{1.33f, {0.45f, 0.09f, 0.06f}};  // per metre: red goes first
inline constexpr Medium kGlass{1.5f, {0.9f, 0.25f, 0.6f}};     // per metre: a window's green edge

struct Interface {
  uint8_t front = 0, back = 1;  // indices into Optics::media
};

// A triangle's interface that toggles between air and water, whichever way it is wound.
inline constexpr uint8_t kToggleAirWater = 255;

// The media on both sides of a crossing: the ray arrives in `from` and refracts into `to`.
struct Crossing {
  uint8_t from = 0, to = 1;
};

// The media and interfaces as a tracer reads them, wherever they live (host or device memory).
struct OpticsView {
  const Medium* media = nullptr;
  const Interface* interfaces = nullptr;
  const uint8_t* triangle_interface = nullptr;  // one per triangle, or null: every crossing toggles

  // Where a ray along `direction`, now in medium `current`, meets `triangle`, whose geometric
  // normal is `face` (any length, as wound).
  MENISCUS_HD Crossing crossing(uint32_t triangle, const glm::vec3& face, const glm::vec3& direction,
                                uint8_t current) const {
    if (!triangle_interface || triangle_interface[triangle] == kToggleAirWater)
      return {current, uint8_t(current == 1 ? 0 : 1)};
    const Interface& i = interfaces[triangle_interface[triangle]];
    return glm::dot(face, direction) < 0.0f ? Crossing{i.front, i.back} : Crossing{i.back, i.front};
  }
};

struct Optics {
  std::vector<Medium> media{kAir, kWater};
  std::vector<Interface> interfaces;        // empty with triangle_interface
  std::vector<uint8_t> triangle_interface;  // one per triangle, or empty: every crossing toggles

  OpticsView view() const {
    return {media.data(), interfaces.data(), triangle_interface.empty() ? nullptr : triangle_interface.data()};
  }
  Crossing crossing(uint32_t triangle, const glm::vec3& face, const glm::vec3& direction, uint8_t current) const {
    return view().crossing(triangle, face, direction, current);
  }

  // InputError naming what is wrong: no media, a medium whose ior is not finite and > 0 or
  // whose absorption is negative or not finite, an interface naming a missing medium, or a
  // per-triangle list of another length than `triangles` or naming a missing interface.
  void validate(size_t triangles) const;
};

// One closed mesh of water in air, crossings toggling: what a scan or an iso-surface is traced as.
inline const Optics kWaterInAir{};

// Fraction of light reflected at a dielectric interface: the exact Fresnel equations for
// unpolarised light, from the cosine of incidence and the ratio eta = n1 / n2. 1 past the
// critical angle (total internal reflection).
MENISCUS_HD inline float fresnel_reflectance(float cos_i, float eta) {
  const float sin2_t = eta * eta * (1.0f - cos_i * cos_i);
  if (sin2_t >= 1.0f) return 1.0f;
  const float cos_t = std::sqrt(1.0f - sin2_t);
  const float r_s = (eta * cos_i - cos_t) / (eta * cos_i + cos_t);
  const float r_p = (cos_i - eta * cos_t) / (cos_i + eta * cos_t);
  return 0.5f * (r_s * r_s + r_p * r_p);
}

}  // namespace meniscus::sim::photon
