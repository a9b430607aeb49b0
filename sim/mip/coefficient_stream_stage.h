#pragma once
// The streaming MIP's coefficient stream handed from a simulation backend to the MIP pass in a
// SharedBuffer: host memory the CPU reference writes, or device memory exported by Vulkan that
// the CUDA build (coefficient_stream_cuda.h) writes in place. Both write the same stream, bit
// for bit. Unlike a per-frame Stage it has no step: a still volume's stream does not change, so
// it is built once when the scene loads, and the build has finished writing before the
// constructor returns, before any frame reads it.
#include <cstdint>
#include <memory>

#include "engine/interop/shared_buffer.h"
#include "sim/common/backend.h"
#include "sim/mip/coefficient_stream.h"
#include "sim/mip/grey_volume.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim::mip {

class CoefficientStreamStage {
 public:
  // InputError when the volume cannot have a `levels`-deep pyramid or stream; DeviceError for
  // CUDA when no CUDA device is the Vulkan device.
  CoefficientStreamStage(const Context& context, const GreyVolume& volume, uint32_t levels, SimBackend backend);

  SimBackend backend() const { return backend_; }
  const StreamIndex& index() const { return index_; }
  // index().base_count PackedCoefficients of f_L, then index().detail_count() details.
  const SharedBuffer& coefficients() const { return *coefficients_; }
  // The build's time: CPU wall time, or the CUDA build's kernels' device time.
  double build_ms() const { return build_ms_; }

 private:
  SimBackend backend_;
  StreamIndex index_;
  std::unique_ptr<SharedBuffer> coefficients_;
  double build_ms_ = 0.0;
};

}  // namespace meniscus::sim::mip
