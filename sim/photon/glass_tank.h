#pragma once
// Water in a glass tank: a water block (water_block.h) whose bottom and walls are the tank's
// inner faces, glass of a given thickness around them, open at the top, its rim above the
// waves. One triangle where two media meet (glass and water below the waterline, glass and air
// above it and outside), each wound towards its front medium (optics.h), so the ray tracer and
// the photons refract from water into glass into air as the media say.
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

}  // namespace meniscus::sim::photon
