#pragma once
// The benchmark's volume for a WxH frame. Our pyramid MIPs draw one voxel column per image
// pixel (sim/mip/axis_mip.h), so a frame of W x H pixels is a volume whose image plane is
// W x H voxels: the input is resampled (trilinear, voxel centres aligned) to that plane, and
// along the view axis by the same factor as the image's width, at most `max_depth` voxels
// (an axis-aligned MIP's image does not depend on the depth's spacing, only its cost does).
// Both our passes and VTK's mapper then cast one ray per pixel through the same voxels.
#include <cstdint>

#include "sim/mip/axis_mip.h"
#include "sim/mip/grey_volume.h"

namespace meniscus::bench {

sim::mip::GreyVolume resample_for_frame(const sim::mip::GreyVolume& volume, sim::mip::ViewAxis axis, uint32_t width,
                                        uint32_t height, uint32_t max_depth);

}  // namespace meniscus::bench
