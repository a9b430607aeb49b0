#pragma once
// Turning a triangle soup whose corners carry edge ids (marching cubes: the cube edge each
// vertex lies on) into shared vertices: one per distinct edge, numbered in edge order.
#include <cstdint>
#include <vector>

namespace meniscus::sim {

struct VertexNumbering {
  std::vector<uint64_t> unique_edges;   // vertex v lies on edge unique_edges[v]
  std::vector<uint32_t> vertex_of_key;  // soup corner k is vertex vertex_of_key[k]
};

// `edges[k]` is the edge id of soup corner k, each < 2^32. Radix-sorts (edge, key) pairs on
// the edge id (`edge_bits` significant bits), then numbers the distinct edges in one sweep.
// `scratch` is reused memory.
void number_vertices(const std::vector<uint64_t>& edges, int edge_bits, VertexNumbering& out,
                     std::vector<uint64_t>& pairs, std::vector<uint64_t>& scratch);

}  // namespace meniscus::sim
