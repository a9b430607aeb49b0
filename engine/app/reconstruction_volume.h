#pragma once
// A reconstructed level set as the dense volume marching cubes reads: the band's bounding box
// plus one voxel of outside all round (so the surface closes), in world units, negated so that
// inside is positive as for the other volumes (sim/histopyramid/volume.h).
#include "sim/histopyramid/volume.h"
#include "sim/reconstruct/reconstruction.h"

namespace meniscus {

sim::Volume reconstruction_volume(const sim::reconstruct::Reconstruction& reconstruction);

}  // namespace meniscus
