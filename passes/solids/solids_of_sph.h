#pragma once
// The solids an SPH scene implies: its domain is a glass tank, its box colliders are concrete
// blocks, its planes are solid ground inside the tank, and each emitter is the mouth of a pipe
// that comes in from outside the tank. The only place the solids passes meet sim/sph.
#include <vector>

#include "passes/solids/solid_shape.h"
#include "sim/sph/sph_params.h"

namespace meniscus::passes {

std::vector<SolidShape> solids_of(const sim::SphParams& params);

}  // namespace meniscus::passes
