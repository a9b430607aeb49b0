#pragma once
// Glass tanks for traced scenes, open at the top. One triangle where two media meet, wound
// towards its front medium (optics.h), so the ray tracer and the photons refract from water
// into glass into air as the media say:
//   - water in a glass tank: a water block (water_block.h) whose bottom and walls are the
//     tank's inner faces (glass and water below the waterline, glass and air above it);
//   - an empty tank around a box, for a fluid surface that does not touch its glass.
#include "sim/photon/optics.h"
#include "sim/photon/water_block.h"

namespace meniscus::sim::photon {

// Triangles and the media they separate.
struct OpticalMesh {
  TriangleSoup mesh;
  Optics optics;
};

// `water`: water_block(n, min, max, bottom, top) as it returned it; `wall`: the glass's
// thickness around the sides and under the bottom; `rim`: the height of the tank's top edge.
// The media are air, water and glass, in that order.
// InputError for a wall that is not finite and > 0, or a rim not above every point of the top.
OpticalMesh water_in_glass_tank(TriangleSoup water, uint32_t n, glm::vec2 min, glm::vec2 max, float wall, float rim);

// InputError unless `wall` is finite and > 0 and [inner_min, inner_max] a finite box with
// min < max: what add_empty_glass_tank checks, for a caller that takes the tank before it has
// a scene to put it in.
void validate_empty_glass_tank(glm::vec3 inner_min, glm::vec3 inner_max, float wall);

// An empty glass tank, open at the top, added to `scene`: its inside the box [inner_min,
// inner_max], its rim at inner_max.y, glass `wall` thick around it and under it. The glass is a
// new medium of the scene's optics; the triangles already there keep their interfaces (all
// toggling between air and water when they had none: a fluid's iso-surface inside the tank).
// InputError for a bad wall or box, or optics with no room for another medium.
void add_empty_glass_tank(OpticalMesh& scene, glm::vec3 inner_min, glm::vec3 inner_max, float wall);

}  // namespace meniscus::sim::photon
