// Built when nvcc is not found: the CUDA transforms say so.
#include "engine/core/error.h"
#include "sim/wavelet/wavelet_cuda.h"

namespace meniscus::sim::wavelet {

template <class T>
double forward_cuda(T*, size_t, const Shape&, Wavelet, int) {
  throw DeviceError("wavelet: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}
template <class T>
double inverse_cuda(T*, size_t, const Shape&, Wavelet, int) {
  throw DeviceError("wavelet: CUDA backend not built (MENISCUS_CUDA=OFF or no nvcc)");
}

template double forward_cuda<int16_t>(int16_t*, size_t, const Shape&, Wavelet, int);
template double forward_cuda<int32_t>(int32_t*, size_t, const Shape&, Wavelet, int);
template double forward_cuda<float>(float*, size_t, const Shape&, Wavelet, int);
template double inverse_cuda<int16_t>(int16_t*, size_t, const Shape&, Wavelet, int);
template double inverse_cuda<int32_t>(int32_t*, size_t, const Shape&, Wavelet, int);
template double inverse_cuda<float>(float*, size_t, const Shape&, Wavelet, int);

}  // namespace meniscus::sim::wavelet
