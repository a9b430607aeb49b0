#pragma once
// The CUDA lifting transforms (thesis §3.4): per level, rows with the horizontal pass (one block
// per row, the row lifted in shared memory, §3.4.5) and columns and z lines with the
// sliding-window vertical pass (one block per slab of 32 adjacent lines walking a window down
// the slab, §3.4.6). Same layout, steps and integer arithmetic as forward_cpu/inverse_cpu:
// integer results equal the CPU's bit for bit.
#include <cstddef>
#include <cstdint>

#include "sim/wavelet/wavelet.h"

namespace meniscus::sim::wavelet {

// C++17 (nvcc compiles the backend): a pointer and a count rather than a span.
// Uploads `data`, transforms it on the first CUDA device, downloads it in place. Returns the
// device time of the transform alone (CUDA events, milliseconds). Throws InputError from
// check_transform, DeviceError when built without CUDA or when no device answers.
template <class T>
double forward_cuda(T* data, size_t count, const Shape& shape, Wavelet wavelet, int levels);
template <class T>
double inverse_cuda(T* data, size_t count, const Shape& shape, Wavelet wavelet, int levels);

extern template double forward_cuda<int16_t>(int16_t*, size_t, const Shape&, Wavelet, int);
extern template double forward_cuda<int32_t>(int32_t*, size_t, const Shape&, Wavelet, int);
extern template double forward_cuda<float>(float*, size_t, const Shape&, Wavelet, int);
extern template double inverse_cuda<int16_t>(int16_t*, size_t, const Shape&, Wavelet, int);
extern template double inverse_cuda<int32_t>(int32_t*, size_t, const Shape&, Wavelet, int);
extern template double inverse_cuda<float>(float*, size_t, const Shape&, Wavelet, int);

}  // namespace meniscus::sim::wavelet
