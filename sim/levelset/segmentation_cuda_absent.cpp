// Without MENISCUS_CUDA: the CUDA segmentation says so.
#include "engine/core/error.h"
#include "sim/levelset/segmentation.h"

namespace meniscus::sim::levelset {

std::unique_ptr<Segmentation> make_segmentation_cuda(const Volume&, const SegmentationGrid&, SortedTileList,
                                                     const SegmentationParams&) {
  throw DeviceError("segmentation --sim cuda: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc); use --sim cpu");
}

}  // namespace meniscus::sim::levelset
