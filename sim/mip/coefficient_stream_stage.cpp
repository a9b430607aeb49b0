#include "sim/mip/coefficient_stream_stage.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/core/context.h"
#include "sim/mip/coefficient_stream_cuda.h"

namespace meniscus::sim::mip {
namespace {

// An empty stream still binds a valid buffer.
VkDeviceSize buffer_bytes(size_t coefficients) {
  return std::max<VkDeviceSize>(coefficients * sizeof(PackedCoefficient), 16);
}

}  // namespace

CoefficientStreamStage::CoefficientStreamStage(const Context& context, const GreyVolume& volume, uint32_t levels,
                                               SimBackend backend)
    : backend_(backend) {
  if (backend == SimBackend::Cuda) {
    check_pyramid_levels(volume.dims, levels);  // bad input before any device question
    check_packing(padded_pyramid_dims(volume.dims, levels));
    std::string why;
    if (!find_cuda_device(context.info(), &why)) throw DeviceError("MIP coefficient stream (cuda): " + why);
    index_ = build_coefficient_stream_cuda(
        volume, levels,
        [&](size_t count) {
          coefficients_ = std::make_unique<SharedBuffer>(context, buffer_bytes(count), SharedMemory::Cuda,
                                                         "mip.coefficients");
          return static_cast<PackedCoefficient*>(coefficients_->cuda_pointer());
        },
        &build_ms_);
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  CoefficientStream stream = build_coefficient_stream(build_adjunction_pyramid(volume, levels));
  index_ = std::move(stream.index);
  coefficients_ = std::make_unique<SharedBuffer>(context, buffer_bytes(stream.base.size() + stream.details.size()),
                                                 SharedMemory::Host, "mip.coefficients");
  auto* out = static_cast<PackedCoefficient*>(coefficients_->host_pointer());
  out = std::copy(stream.base.begin(), stream.base.end(), out);
  std::copy(stream.details.begin(), stream.details.end(), out);
  build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace meniscus::sim::mip
