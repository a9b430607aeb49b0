#include "sim/histopyramid/vertex_numbering.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <stdexcept>

namespace meniscus::sim {
namespace {

// LSD radix sort of 64-bit values on bits [32, 32 + key_bits), 11 bits per pass.
void radix_sort_high_bits(std::vector<uint64_t>& values, std::vector<uint64_t>& scratch, int key_bits) {
  constexpr int kDigit = 11;
  scratch.resize(values.size());
  for (int shift = 32; shift < 32 + key_bits; shift += kDigit) {
    std::array<size_t, (1 << kDigit) + 1> offsets{};
    for (uint64_t v : values) ++offsets[((v >> shift) & ((1 << kDigit) - 1)) + 1];
    for (size_t d = 1; d < offsets.size(); ++d) offsets[d] += offsets[d - 1];
    for (uint64_t v : values) scratch[offsets[(v >> shift) & ((1 << kDigit) - 1)]++] = v;
    values.swap(scratch);
  }
}

}  // namespace

void number_vertices(const std::vector<uint64_t>& edges, int edge_bits, VertexNumbering& out,
                     std::vector<uint64_t>& pairs, std::vector<uint64_t>& scratch) {
  const uint64_t total = edges.size();
  if (total >= (uint64_t(1) << 32) || edge_bits > 32) throw std::invalid_argument("number_vertices: over 32-bit ids");
  pairs.resize(total);
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, total), [&](const tbb::blocked_range<uint64_t>& r) {
    for (uint64_t k = r.begin(); k != r.end(); ++k) pairs[k] = edges[k] << 32 | k;
  });
  radix_sort_high_bits(pairs, scratch, edge_bits);
  out.vertex_of_key.resize(total);
  out.unique_edges.clear();
  out.unique_edges.reserve(total / 4);
  for (uint64_t i = 0; i < total; ++i) {
    const uint64_t edge = pairs[i] >> 32;
    if (out.unique_edges.empty() || out.unique_edges.back() != edge) out.unique_edges.push_back(edge);
    out.vertex_of_key[pairs[i] & 0xFFFFFFFFu] = uint32_t(out.unique_edges.size() - 1);
  }
}

}  // namespace meniscus::sim
