#pragma once
// Which instruction set the CPU marching cubes' inner loops use. kFastest takes the widest the
// CPU has: AVX-512 (F and BW), then AVX2; kAvx2 stops at AVX2 (so that its loops can be checked
// on an AVX-512 CPU too); kBaseline keeps to SSE2 (every x86-64) and plain C++ elsewhere. Every
// set gives the same mesh bit for bit: the loops do the same operations in the same order, with
// no fused multiply-adds.
// Where the compiler can build AVX2 and AVX-512 functions (target attributes) for x86 CPUs;
// whether the CPU runs them is asked at run time (mc_instruction_set).
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define MENISCUS_MC_X86 1
#endif

namespace meniscus::sim {

enum class McKernels { kFastest, kAvx2, kBaseline };

enum class McInstructionSet { kBaseline, kAvx2, kAvx512 };

// What `kernels` resolves to on this CPU.
McInstructionSet mc_instruction_set(McKernels kernels);

// "avx512", "avx2" or "baseline": the name of what `kernels` resolves to on this CPU.
const char* mc_kernels_name(McKernels kernels);

// Of one loop's three forms, the one `kernels` resolves to on this CPU.
template <typename Loop>
Loop mc_loop(McKernels kernels, Loop avx512, Loop avx2, Loop baseline) {
  switch (mc_instruction_set(kernels)) {
    case McInstructionSet::kAvx512:
      return avx512;
    case McInstructionSet::kAvx2:
      return avx2;
    case McInstructionSet::kBaseline:
      break;
  }
  return baseline;
}

}  // namespace meniscus::sim
