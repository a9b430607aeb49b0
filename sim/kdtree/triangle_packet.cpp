// Ray packets through the triangle kd-tree (triangle_packet.h). The walk is written once with
// GCC's vector types and compiled for AVX-512 (16 lanes) and for AVX2 (8 lanes), a register
// each; the x86-64 baseline's four-wide registers made a packet slower than its rays one by
// one, so without AVX2 every ray walks alone. This library is built without fused
// multiply-adds, so the packet's Möller–Trumbore rounds as intersect_edges does.
#include "sim/kdtree/triangle_packet.h"

#include <algorithm>
#include <glm/geometric.hpp>
#include <limits>
#include <stdexcept>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define MENISCUS_RAY_PACKETS 1
#include <immintrin.h>
#endif

namespace meniscus::sim::kdtree {
namespace {

#if defined(MENISCUS_RAY_PACKETS)

// Every vector is passed by reference or inlined, never across a call between targets: GCC's
// note on the ABI of vector returns does not apply.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq")
#endif
namespace avx512 {
constexpr uint32_t kWidth = 16;
#include "sim/kdtree/triangle_packet_walk.inl"
}  // namespace avx512
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
namespace avx2 {
constexpr uint32_t kWidth = 8;
#include "sim/kdtree/triangle_packet_walk.inl"
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#pragma GCC diagnostic pop

#endif

uint32_t trace_single(const TriangleKdView& tree, const Ray* rays, uint32_t count, RayHit* hits) {
  for (uint32_t i = 0; i < count; ++i) hits[i] = traverse<false>(tree, rays[i]);
  return 0;
}

using TraceGroup = uint32_t (*)(const TriangleKdView&, const Ray*, uint32_t, RayHit*);

struct GroupChoice {
  TraceGroup trace;
  uint32_t width;  // rays per group
  const char* name;
};

const GroupChoice& choice(RayKernels kernels) {
  static constexpr GroupChoice single{trace_single, 1, "single"};
#if defined(MENISCUS_RAY_PACKETS)
  static const bool has_avx2 = __builtin_cpu_supports("avx2");
  static const bool has_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  static constexpr GroupChoice with_avx2{avx2::trace_group, avx2::kWidth, "avx2"};
  static constexpr GroupChoice with_avx512{avx512::trace_group, avx512::kWidth, "avx512"};
  if (kernels == RayKernels::kFastest && has_avx512) return with_avx512;
  if (kernels != RayKernels::kSingle && has_avx2) return with_avx2;
#endif
  return single;
}

}  // namespace

const char* ray_kernels_name(RayKernels kernels) { return choice(kernels).name; }

size_t trace_closest_packets(const TriangleKdView& tree, std::span<const Ray> rays, std::span<RayHit> hits,
                             RayKernels kernels) {
  if (hits.size() != rays.size()) throw std::invalid_argument("trace_closest_packets: a hit for every ray");
  const GroupChoice& kernel = choice(kernels);
  size_t in_packets = 0;
  for (size_t first = 0; first < rays.size(); first += kernel.width) {
    const uint32_t count = uint32_t(std::min<size_t>(kernel.width, rays.size() - first));
    in_packets += kernel.trace(tree, rays.data() + first, count, hits.data() + first);
  }
  return in_packets;
}

}  // namespace meniscus::sim::kdtree
