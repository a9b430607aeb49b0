// The CPU lifting transforms of int16_t samples (wavelet_cpu_transform.h).
#include "sim/wavelet/wavelet_cpu_transform.h"

namespace meniscus::sim::wavelet {

template void forward_cpu<int16_t>(std::span<int16_t>, const Shape&, Wavelet, int);
template void inverse_cpu<int16_t>(std::span<int16_t>, const Shape&, Wavelet, int);

}  // namespace meniscus::sim::wavelet
