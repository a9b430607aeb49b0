#pragma once
// Static solids as boundary particles, coupled as in Akinci et al., "Versatile rigid-fluid
// coupling for incompressible SPH" (SIGGRAPH 2012): each sample adds its volume Psi_b to the
// density of nearby fluid, and a fluid particle's pressure is mirrored onto it.
//
// Akinci samples one layer and sets Psi_b = 1 / sum_k W_bk; one layer covers neither the
// half-space behind a flat wall (fluid there is ~6% under-dense) nor the quadrant behind an
// edge or the octant behind a corner (~7% under), and an under-dense particle feels no
// pressure, so neighbours push it into the corner. We sample the solid itself instead: two
// lattice layers behind every surface (the kernel reaches two spacings), each sample the
// volume of one lattice cell, so a fluid particle touching a wall, an edge or a corner sees
// exactly the rest density a full lattice would give it.
#include <vector>

#include "sim/sph/sph_kernel.h"
#include "sim/sph/sph_params.h"

namespace meniscus::sim::sph {

struct Boundary {
  std::vector<Vec3> position;  // sorted along the grid's Z-order curve
  std::vector<float> volume;
};

// `lattice_volume`: the fluid particle volume (sph_setup.h), the volume of a full-lattice site.
Boundary sample_boundary(const SphParams& params, float lattice_volume);

}  // namespace meniscus::sim::sph
