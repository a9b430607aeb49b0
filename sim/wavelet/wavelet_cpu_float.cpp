// The CPU lifting transforms of float samples (wavelet_cpu_transform.h).
#include "sim/wavelet/wavelet_cpu_transform.h"

namespace meniscus::sim::wavelet {

template void forward_cpu<float>(std::span<float>, const Shape&, Wavelet, int);
template void inverse_cpu<float>(std::span<float>, const Shape&, Wavelet, int);

}  // namespace meniscus::sim::wavelet
