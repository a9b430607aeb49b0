#pragma once
// Four float lanes in an SSE register (every x86-64 has SSE), as GCC/Clang vector extensions:
// the CPU backend's branch-free inner loops.
#include <cstdint>

namespace meniscus::sim::sph {

using Lanes = float __attribute__((vector_size(16)));
using LaneMask = int __attribute__((vector_size(16)));
constexpr uint32_t kLanes = 4;

inline Lanes splat(float v) { return Lanes{v, v, v, v}; }

}  // namespace meniscus::sim::sph
