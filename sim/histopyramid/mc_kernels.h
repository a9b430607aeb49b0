#pragma once
// Which instruction set the CPU marching cubes' inner loops use. kFastest takes AVX-512 (F and BW)
// where the CPU has it; kBaseline keeps to SSE2 (every x86-64) and plain C++ elsewhere, so the two
// can be checked against each other, bit for bit, on one machine.
// Where the compiler can build AVX-512 functions (target attributes) for x86 CPUs; whether
// the CPU runs them is asked at run time (mc_uses_avx512).
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define MENISCUS_MC_AVX512 1
#endif

namespace meniscus::sim {

enum class McKernels { kFastest, kBaseline };

// "avx512" or "baseline": what `kernels` resolves to on this CPU.
const char* mc_kernels_name(McKernels kernels);

// Whether `kernels` resolves to the AVX-512 loops on this CPU.
bool mc_uses_avx512(McKernels kernels);

}  // namespace meniscus::sim
