#include "sim/histopyramid/mc_kernels.h"

namespace meniscus::sim {

McInstructionSet mc_instruction_set(McKernels kernels) {
#if defined(MENISCUS_MC_X86)
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (kernels == McKernels::kFastest && avx512) return McInstructionSet::kAvx512;
  if (kernels != McKernels::kBaseline && avx2) return McInstructionSet::kAvx2;
#else
  (void)kernels;
#endif
  return McInstructionSet::kBaseline;
}

const char* mc_kernels_name(McKernels kernels) {
  switch (mc_instruction_set(kernels)) {
    case McInstructionSet::kAvx512: return "avx512";
    case McInstructionSet::kAvx2: return "avx2";
    case McInstructionSet::kBaseline: break;
  }
  return "baseline";
}

}  // namespace meniscus::sim
