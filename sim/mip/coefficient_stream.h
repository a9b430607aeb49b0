#pragma once
// The streaming MIP's input (thesis §2.3.4): the non-zero detail coefficients of every level
// joined in one list and sorted by an auxiliary error, so that any prefix of the list is the
// best partial reconstruction of its length; plus the approximation f_L, always drawn.
//
// Auxiliary error. The thesis defers its definition to [107] and sorts by it "so that each
// successive coefficient maximally reduces the L1 error between the partial reconstruction and
// the original data". d_j(n) itself is not small where the opening nearly fits (2.9), so we
// measure what the coefficient adds over the opening beneath it, times the voxels it covers:
//   aux_j(n) = (f_j(n) - EXPAND(f_{j+1})(n)) * 8^j,
// the L1 error it removes when drawn over the approximation alone.
//
// Every coefficient is drawn as a 2^j x 2^j square (the projected structuring element, scaled
// j times): a point with a local dilation of its level's size. Because each drawn term lies
// below f (2.10) and max only raises pixels, the image rises monotonically with the budget.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "sim/common/host_device.h"
#include "sim/mip/adjunction_pyramid.h"
#include "sim/mip/axis_mip.h"

namespace meniscus::sim::mip {

// One coefficient as the GPU reads it (two uint32): position on its own level's grid packed
// x | y << 11 | z << 22, then value | level << 16.
struct PackedCoefficient {
  uint32_t position;
  uint32_t value_level;
};
constexpr uint32_t kMaxPaddedSideXY = 2048, kMaxPaddedSideZ = 1024;

MENISCUS_HD inline PackedCoefficient pack_coefficient(uint32_t x, uint32_t y, uint32_t z, uint32_t value,
                                                      uint32_t level) {
  return {x | y << 11 | z << 22, value | level << 16};
}
inline PackedCoefficient pack(glm::uvec3 p, uint16_t value, uint32_t level) {
  return pack_coefficient(p.x, p.y, p.z, value, level);
}
glm::uvec3 unpack_position(PackedCoefficient c);
inline uint32_t unpack_value(PackedCoefficient c) { return c.value_level & 0xffffu; }
inline uint32_t unpack_level(PackedCoefficient c) { return c.value_level >> 16; }

// What the host keeps of a stream wherever its coefficients live (host vectors below, or the
// SharedBuffer a CoefficientStreamStage fills for the MIP pass): its shape and the running
// auxiliary error, which the budget, the error bound and the panel read.
struct StreamIndex {
  glm::uvec3 dims{0}, padded_dims{0};
  uint32_t levels = 0;
  uint32_t base_count = 0;  // f_L's non-zero voxels, first in the stream
  // removed_error[n]: the auxiliary errors of the first n details summed (detail_count + 1
  // entries); what progressive refinement reports and stops on (remaining_error below).
  std::vector<uint64_t> removed_error{0};
  uint32_t detail_count() const { return uint32_t(removed_error.size() - 1); }
};

struct CoefficientStream {
  StreamIndex index;
  std::vector<PackedCoefficient> base;     // f_L's non-zero voxels, level L
  std::vector<PackedCoefficient> details;  // non-zero d_j, decreasing auxiliary error
};

// InputError when the padded volume exceeds the packing (kMaxPaddedSide*).
void check_packing(glm::uvec3 padded_dims);
// The CPU reference, multi-threaded. Equal auxiliary errors keep level-then-position order, so
// the stream is one sequence whoever builds it (coefficient_stream_cuda.h builds the same).
CoefficientStream build_coefficient_stream(const AdjunctionPyramid& pyramid);

// How many details `fraction` (0..1) of them is, rounded to nearest.
uint32_t detail_budget(const StreamIndex& index, double fraction);

// The auxiliary error left in the details after the first `drawn`, relative to all of it
// (1 with none drawn, 0 with all; 0 for a stream without details). Non-increasing in `drawn`.
double remaining_error(const StreamIndex& index, uint32_t drawn);

// The fewest details whose remaining_error is at most `bound` (0..1): where an error-bounded
// refinement stops.
uint32_t detail_count_for_error(const StreamIndex& index, double bound);

// CPU reference of the streaming MIP: the base and the first `detail_count` details, each a
// 2^level square of its value max-ed into the level-0 image; cropped to the volume's size.
MipImage streaming_mip(const CoefficientStream& stream, ViewAxis axis, uint32_t detail_count);

}  // namespace meniscus::sim::mip
