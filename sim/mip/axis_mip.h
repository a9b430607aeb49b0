#pragma once
// Orthographic MIP along a volume axis, the view the multiresolution MIP of thesis §2.3.3 is
// exact for: one voxel column per pixel, so the projection of the structuring element
// A = {0,1}^3 is the 2x2 square and 2-D EXPAND is pixel replication. (Any other direction
// projects A to a shape that does not tile the pixel grid; §2.4.7 fills the holes that leaves
// with a closing, which is no longer exact.)
//
// Image axes per view axis: along z the image is (x, y), along y (x, z), along x (y, z).
#include <cstdint>
#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/mip/adjunction_pyramid.h"
#include "sim/mip/grey_volume.h"

namespace meniscus::sim::mip {

enum class ViewAxis { X, Y, Z };
std::optional<ViewAxis> view_axis_from_name(const std::string& name);  // "x", "y", "z"

// The (u, v) image coordinates of voxel p seen along `axis`.
glm::uvec2 image_coordinates(glm::uvec3 p, ViewAxis axis);
glm::uvec2 image_size(glm::uvec3 dims, ViewAxis axis);

struct MipImage {
  uint32_t width = 0, height = 0;
  std::vector<uint32_t> values;  // row-major, u fastest; grey levels (uint32 as on the GPU)

  uint32_t at(uint32_t u, uint32_t v) const { return values[size_t(v) * width + u]; }
};

// The full-resolution MIP: the maximum of each voxel column.
MipImage axis_mip(const GreyVolume& volume, ViewAxis axis);

// §2.3.3: the MIP of f_L, then per level j = L-1..0 a 2-D EXPAND and the max with the MIP of
// d_j; cropped to the volume's own size. Equal to axis_mip with every level (max is exact).
MipImage multiresolution_mip(const AdjunctionPyramid& pyramid, ViewAxis axis);

// The top-left width x height pixels of `image` (drops the pyramid's padding).
MipImage crop(const MipImage& image, uint32_t width, uint32_t height);

}  // namespace meniscus::sim::mip
