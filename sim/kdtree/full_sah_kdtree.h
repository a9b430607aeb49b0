#pragma once
// The offline yardstick of Zhou et al. 2008's Table 2: an SAH kd-tree over triangles with the
// exact SAH at every node, large or small (Wald and Havran's sweep over the sorted box events
// of the node's triangles, clipped to the node), instead of the GPU build's median and
// empty-space splits above `large_node_triangles`. Same cost model, leaf rule and output as
// build_triangle_kdtree, so the two SAH costs and trace times compare directly. O(n log^2 n)
// and serial: the benchmark's reference, not a per-frame build.
#include <span>

#include <glm/vec3.hpp>

#include "sim/kdtree/triangle_kdtree.h"

namespace meniscus::sim::kdtree {

// Uses params.traversal_cost and params.max_depth. InputError as build_triangle_kdtree.
TriangleKdTree build_full_sah_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params = {});

}  // namespace meniscus::sim::kdtree
