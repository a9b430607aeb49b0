#pragma once
// k nearest neighbours over a KdTree by range search from a conservative radius (Zhou et al.
// 2008, Algorithm 6): r0 comes from Algorithm 7 (KNN radii precomputed at the centres of small
// nodes), and queries run in a coherent order (the tree's own points in leaf order, others by
// Morton code). On the GPU (kdtree_cuda.h) the radius is narrowed by
// n_iter histogram rounds, each a fresh range search, as in the paper. On the CPU a thread can
// hold a list of the k nearest, so the one range search narrows its radius to the current k-th
// distance as it goes (knn_search.cpp), and runs of nearby queries share one walk of the tree
// (knn_packet.h); the histogram parameters apply to the CUDA search only. Results are exact:
// the k nearest by squared float distance, ties broken by the lower input index, so they do not
// depend on the backend or the thread count.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "engine/core/uninitialized_vector.h"
#include "sim/kdtree/kdtree.h"

namespace meniscus::sim::kdtree {

inline constexpr uint32_t kMaxHistogramBins = 64;

// The SIMD kernels of the CPU search: the fastest this CPU has (AVX-512 where present, else
// AVX2, else the x86-64 baseline SSE2), or the baseline whatever the CPU. All give the same
// neighbours.
enum class KnnKernels { kFastest, kBaseline };
// The name of the kernels `kernels` selects on this CPU (as KnnStats::kernels).
const char* knn_kernels_name(KnnKernels kernels);

struct KnnParams {
  uint32_t k = 16;
  uint32_t histogram_bins = 32;  // n_hist
  uint32_t iterations = 2;       // n_iter
  float alpha = 0.5f;            // Appendix A: nodes smaller than alpha R get a precomputed radius
  uint32_t estimate_levels = 3;  // n_level: levels of such nodes that do
  KnnKernels kernels = KnnKernels::kFastest;
};

struct KnnStats {
  double estimate_ms = 0;  // Algorithm 7's precomputation
  double order_ms = 0;     // ordering the queries (0 for the tree's own points)
  double search_ms = 0;
  double mean_points_tested = 0;  // distances computed per query
  double mean_nodes_visited = 0;  // node boxes tested per query
  uint64_t retries = 0;        // range searches repeated because r0 held fewer than k points
  uint32_t radius_nodes = 0;   // nodes with a precomputed radius
  const char* kernels = "";    // the search that ran: "avx512", "avx2", "sse2", "scalar" or "cuda" ("": none)
};

struct KnnResult {
  uint32_t k = 0;                 // neighbours per query: min(requested k, points in the tree)
  // Query q's j-th nearest point: indices[q * k + j], nearest first; and its distance. Left
  // uninitialised before the search writes every row.
  UninitializedVector<uint32_t> indices;
  UninitializedVector<float> distances;
  KnnStats stats;

  size_t queries() const { return k == 0 ? 0 : indices.size() / k; }
  // r_k: the distance to the k-th nearest neighbour.
  float radius(size_t query) const { return distances[query * k + k - 1]; }
};

// Every point of the tree as a query (a point is its own nearest neighbour), rows in input order.
KnnResult knn_all(const KdTree& tree, const KnnParams& params = {});

// Arbitrary query points; throws InputError for a non-finite query.
KnnResult knn(const KdTree& tree, std::span<const glm::vec3> queries, const KnnParams& params = {});

}  // namespace meniscus::sim::kdtree
