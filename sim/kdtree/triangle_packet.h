#pragma once
// Closest hits for many rays on the CPU, sixteen (or eight) at a time (Wald's kd-tree packets,
// 2004): the rays of a group that head into the same octant walk the tree together, each node's split
// compared with all of them in one vector operation, and each leaf's triangles tested against
// all of them at once. Neighbouring pixels' rays, and the rays they reflect and refract, visit
// nearly the same nodes, so the walk (and its mispredicted branches) is shared.
//
// Every lane keeps its own interval, hit and end, and decides exactly as traverse<false>
// (triangle_traversal.h) does; the arithmetic is the single ray's, in its order and unfused, so
// each hit is the single traversal's to the bit. A group's rays walk octant by octant (near and
// far must be the same child for every lane); a lone ray of its octant, and a packet with a ray
// running in a split's plane, are traced one by one.
#include <cstddef>
#include <cstdint>
#include <span>

#include "sim/kdtree/triangle_traversal.h"

namespace meniscus::sim::kdtree {

enum class RayKernels {
  kFastest,  // 16-ray packets with AVX-512, else 8-ray packets with AVX2, else single rays
  kAvx2,     // 8-ray packets with AVX2 where the CPU has it, else single rays (tests, comparisons)
  kSingle,   // every ray walked on its own
};

// What `kernels` runs on this CPU: "avx512", "avx2" or "single".
const char* ray_kernels_name(RayKernels kernels);

// hits[i] = the closest hit of rays[i] (hits.size() == rays.size(), else std::invalid_argument).
// Returns how many rays walked in packets (the rest one by one).
size_t trace_closest_packets(const TriangleKdView& tree, std::span<const Ray> rays, std::span<RayHit> hits,
                             RayKernels kernels = RayKernels::kFastest);

}  // namespace meniscus::sim::kdtree
