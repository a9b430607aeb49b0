#pragma once
// The streaming MIP's coefficient stream built on a CUDA device: the adjunction pyramid level by
// level (REDUCE, then each level's details against the EXPAND of the next), the non-zero
// details compacted by a scan, keyed by their auxiliary error, and sorted by CUB's radix sort.
// The stream equals build_coefficient_stream's bit for bit: the candidates are gathered level by
// level in position order, as on the CPU, and the radix sort is stable, which is the CPU's
// tie order.
#include <cstddef>
#include <functional>

#include "sim/mip/coefficient_stream.h"
#include "sim/mip/grey_volume.h"

namespace meniscus::sim::mip {

// Builds the stream of `volume`'s `levels`-deep pyramid on the current CUDA device. Once the
// coefficients are counted, `destination(count)` returns device memory for `count`
// PackedCoefficients (the base, then the details), which the build fills; the work has finished
// on the device when this returns. `device_ms`, when given, receives the device time of the
// build's kernels and CUB calls (CUDA events around them; the uploads, allocations and the
// read-backs of the counts and errors fall outside). InputError as the CPU build (levels, size);
// DeviceError when built without CUDA or when the device fails; DeviceMemoryError when the
// pyramid does not fit.
StreamIndex build_coefficient_stream_cuda(const GreyVolume& volume, uint32_t levels,
                                          const std::function<PackedCoefficient*(size_t count)>& destination,
                                          double* device_ms = nullptr);

// The same, with the coefficients downloaded into a host stream (tests, the benchmark).
CoefficientStream build_coefficient_stream_cuda(const GreyVolume& volume, uint32_t levels,
                                                double* device_ms = nullptr);

}  // namespace meniscus::sim::mip
