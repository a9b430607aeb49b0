#pragma once
// The CPU reference of the lifting transforms: multi-threaded (TBB), in place. Rows are lifted
// one per task; columns (and the z lines of a volume) in strips of adjacent lines, so every
// load and store is a contiguous run and the lifting vectorises across the strip. The loops
// run with AVX2 where the CPU has it (lifting_isa.h); the results are the same bit for bit on
// either instruction set.
#include <cstdint>
#include <span>

#include "sim/wavelet/wavelet.h"

namespace meniscus::sim::wavelet {

// `levels` levels of the forward transform of `data` (x fastest), in place. Integer storage
// lifts reversibly (integer-to-integer); float lifts in float. Throws InputError from
// check_transform.
template <class T>
void forward_cpu(std::span<T> data, const Shape& shape, Wavelet wavelet, int levels);

// Exactly undoes forward_cpu for integers; within float rounding for float.
template <class T>
void inverse_cpu(std::span<T> data, const Shape& shape, Wavelet wavelet, int levels);

// The instruction set the lifting loops run with: "avx2" where the CPU has it (unless the
// environment sets MENISCUS_WAVELET_ISA=baseline), else the build's x86-64 baseline.
const char* cpu_lifting_isa();

extern template void forward_cpu<int16_t>(std::span<int16_t>, const Shape&, Wavelet, int);
extern template void forward_cpu<int32_t>(std::span<int32_t>, const Shape&, Wavelet, int);
extern template void forward_cpu<float>(std::span<float>, const Shape&, Wavelet, int);
extern template void inverse_cpu<int16_t>(std::span<int16_t>, const Shape&, Wavelet, int);
extern template void inverse_cpu<int32_t>(std::span<int32_t>, const Shape&, Wavelet, int);
extern template void inverse_cpu<float>(std::span<float>, const Shape&, Wavelet, int);

}  // namespace meniscus::sim::wavelet
