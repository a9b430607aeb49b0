#pragma once
// What the solids passes draw: static boxes, half-spaces, a glass tank and pipes, each with its
// material. A description of its own, so the passes know nothing of the stage that made it
// (solids_of() in solids_of_sph.h builds one from the SPH stage's settings).
#include <vector>

#include <glm/glm.hpp>

namespace meniscus::passes {

struct SolidMaterial {
  // Stone: rough dielectric with a faint world-space mottle. Metal: the colour is the specular
  // reflectance (F0). Glass: transmits; the colour tints what is seen through it and its edges.
  enum class Kind { Stone, Metal, Glass };
  Kind kind = Kind::Stone;
  glm::vec3 color{0.6f};
  float roughness = 0.8f;  // 0 mirror .. 1 fully diffuse (stone, metal)
};

inline constexpr SolidMaterial kConcrete{SolidMaterial::Kind::Stone, {0.52f, 0.49f, 0.45f}, 0.85f};
inline constexpr SolidMaterial kPipeSteel{SolidMaterial::Kind::Metal, {0.62f, 0.63f, 0.65f}, 0.35f};
inline constexpr SolidMaterial kTankGlass{SolidMaterial::Kind::Glass, {0.55f, 0.78f, 0.74f}, 0.0f};

struct SolidShape {
  enum class Kind {
    Box,    // [min, max]
    Plane,  // the solid half-space behind `normal` through `point`, cut to [min, max]
    Tank,   // an open-topped glass box whose inside is [min, max]; walls `thickness` thick
    Pipe,   // a tube whose mouth is at `center`, pointing along `direction`, `length` long
  };
  Kind kind = Kind::Box;
  SolidMaterial material = kConcrete;
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
  glm::vec3 point{0.0f};
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  glm::vec3 center{0.0f};
  glm::vec3 direction{1.0f, 0.0f, 0.0f};
  float radius = 0.0f;     // pipe: inner radius
  float length = 0.0f;     // pipe: from the mouth back along -direction
  float thickness = 0.0f;  // pipe wall, tank glass

  bool opaque() const { return material.kind != SolidMaterial::Kind::Glass; }
};

}  // namespace meniscus::passes
