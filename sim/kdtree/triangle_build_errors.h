#pragma once
// The triangle kd-tree builds' input errors, shared by the CPU build and the CUDA build (whose
// .cu files are C++17 and see only this). Internal to sim/kdtree.
#include <cstddef>
#include <cstdint>

#include "sim/kdtree/triangle_build_rules.h"

namespace meniscus::sim::kdtree {

// InputError for parameters out of range.
void validate_triangle_kd_params(const TriangleKdParams& params);
// InputError for a count not divisible by three, or 2^32 indices or more.
void validate_index_count(size_t count);
// The InputError for index `position` naming `vertex` of only `vertex_count`.
[[noreturn]] void throw_index_out_of_range(size_t position, uint32_t vertex, size_t vertex_count);
// The InputError for a tree with more nodes or leaf entries than TriangleKdNode can index.
[[noreturn]] void throw_tree_too_large();

}  // namespace meniscus::sim::kdtree
