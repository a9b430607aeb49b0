#include "passes/solids/solids_of_sph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace meniscus::passes {
namespace {

glm::vec3 vec(const float (&v)[3]) { return {v[0], v[1], v[2]}; }

// Distance from `origin` along `dir` to where the ray leaves the box (0 when outside).
float exit_distance(glm::vec3 origin, glm::vec3 dir, glm::vec3 lo, glm::vec3 hi) {
  float t = std::numeric_limits<float>::max();
  for (int a = 0; a < 3; ++a) {
    if (std::abs(dir[a]) < 1e-6f) continue;
    t = std::min(t, ((dir[a] > 0.0f ? hi[a] : lo[a]) - origin[a]) / dir[a]);
  }
  return std::max(t, 0.0f);
}

}  // namespace

std::vector<SolidShape> solids_of(const sim::SphParams& params) {
  std::vector<SolidShape> shapes;
  const glm::vec3 lo = vec(params.domain.min), hi = vec(params.domain.max);
  const glm::vec3 size = hi - lo;
  const float smallest = std::min({size.x, size.y, size.z});

  SolidShape tank;
  tank.kind = SolidShape::Kind::Tank;
  tank.material = kTankGlass;
  tank.min = lo;
  tank.max = hi;
  // Glass about 2 % of the tank's narrowest side: 6 mm on the dam break's 30 cm tank.
  tank.thickness = std::clamp(0.02f * smallest, 0.003f, 0.03f);
  shapes.push_back(tank);

  for (const sim::SphBoxCollider& collider : params.boxes) {
    SolidShape box;
    box.kind = SolidShape::Kind::Box;
    box.material = kConcrete;
    box.min = vec(collider.box.min);
    box.max = vec(collider.box.max);
    shapes.push_back(box);
  }

  for (const sim::SphPlane& plane : params.planes) {
    SolidShape solid;
    solid.kind = SolidShape::Kind::Plane;
    solid.material = kConcrete;
    solid.point = vec(plane.point);
    solid.normal = glm::normalize(vec(plane.normal));
    solid.min = lo;
    solid.max = hi;
    shapes.push_back(solid);
  }

  for (const sim::SphEmitter& emitter : params.emitters) {
    SolidShape pipe;
    pipe.kind = SolidShape::Kind::Pipe;
    pipe.material = kPipeSteel;
    pipe.center = vec(emitter.center);
    pipe.direction = glm::normalize(vec(emitter.direction));
    // The injected disk's particles stick out of it by a radius: the bore has to hold them.
    pipe.radius = emitter.radius + params.particle_radius;
    pipe.thickness = std::max(0.15f * pipe.radius, 0.004f);
    // Back through the tank's wall and a short length beyond it, so it reads as a supply pipe.
    const float outside = std::max(0.25f, 3.0f * (pipe.radius + pipe.thickness));
    pipe.length = exit_distance(pipe.center, -pipe.direction, lo, hi) + outside;
    shapes.push_back(pipe);
  }
  return shapes;
}

}  // namespace meniscus::passes
