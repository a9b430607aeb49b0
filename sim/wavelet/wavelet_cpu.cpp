#include "sim/wavelet/wavelet_cpu.h"

#include <cstdlib>
#include <cstring>

#include "sim/wavelet/lifting_isa.h"

namespace meniscus::sim::wavelet {
namespace cpu_detail {

// AVX2 where the CPU has it, unless MENISCUS_WAVELET_ISA=baseline asks for the build's own
// x86-64 baseline (to compare like with like against a peer built for it).
bool use_avx2() {
#if MENISCUS_WAVELET_HAS_AVX2
  static const bool has = __builtin_cpu_supports("avx2");
  const char* asked = std::getenv("MENISCUS_WAVELET_ISA");
  return has && !(asked && std::strcmp(asked, "baseline") == 0);
#else
  return false;
#endif
}

}  // namespace cpu_detail

const char* cpu_lifting_isa() { return cpu_detail::use_avx2() ? "avx2" : "x86-64 baseline (sse2)"; }

}  // namespace meniscus::sim::wavelet
