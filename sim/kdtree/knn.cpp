// KNN over many queries on the CPU: Algorithm 7's radii, queries sorted by Morton code, then
// fixed chunks of consecutive queries in parallel. Within a chunk each query after the first
// also bounds r0 by its distance to the farthest of the previous query's k neighbours: Morton
// order makes consecutive queries about one point spacing apart, so that bound is tight. Chunks are fixed in
// size, not by thread count; the answer does not depend on r0 in any case, only the work does.
#include "sim/kdtree/knn.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <chrono>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/knn_search.h"
#include "sim/kdtree/radius_estimate.h"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

constexpr uint32_t kQueryChunk = 128;

void validate(const KnnParams& params) {
  if (params.k == 0) throw InputError("kdtree knn: k must be at least 1");
  if (params.histogram_bins < 2 || params.histogram_bins > kMaxHistogramBins)
    throw InputError("kdtree knn: histogram_bins must be in [2, " + std::to_string(kMaxHistogramBins) + "], got " +
                     std::to_string(params.histogram_bins));
  if (!(params.alpha > 0.0f) || !std::isfinite(params.alpha))
    throw InputError("kdtree knn: alpha must be finite and > 0");
}

// Runs `count` queries; `query(i, xyz)` gives query i's position and `row(i)` its output row.
template <class Query, class Row>
KnnResult run_queries(const KdTree& tree, size_t count, const KnnParams& params, Query query, Row row) {
  validate(params);
  KnnResult result;
  if (tree.size() == 0 || count == 0) return result;
  const uint32_t k = std::min<uint32_t>(params.k, uint32_t(tree.size()));
  result.k = k;
  result.indices.resize(count * k);
  result.distances.resize(count * k);

  auto start = Clock::now();
  const RadiusTable table = precompute_radii(tree, k, params);
  result.stats.estimate_ms = ms_since(start);
  result.stats.radius_nodes = table.computed;

  // Morton order: code in the high bits, query number in the low ones (unique keys, so the
  // unstable parallel sort gives one order).
  start = Clock::now();
  const KdNode& root = tree.nodes[0];
  const Aabb box{{root.lo[0], root.lo[1], root.lo[2]}, {root.hi[0], root.hi[1], root.hi[2]}};
  std::vector<uint64_t> order(count);
  tbb::parallel_for(size_t(0), count, [&](size_t i) {
    float p[3];
    query(i, p);
    order[i] = (uint64_t(morton_code(box, p[0], p[1], p[2])) << 32) | uint64_t(i);
  });
  tbb::parallel_sort(order.begin(), order.end());
  result.stats.order_ms = ms_since(start);

  start = Clock::now();
  const QueryConfig config{k, params.histogram_bins, params.iterations};
  const size_t chunks = (count + kQueryChunk - 1) / kQueryChunk;
  std::vector<uint64_t> chunk_candidates(chunks), chunk_retries(chunks);
  tbb::enumerable_thread_specific<SearchScratch> scratch([&] { return SearchScratch(tree); });
  tbb::parallel_for(size_t(0), chunks, [&](size_t c) {
    SearchScratch& s = scratch.local();
    s.candidate_count = 0;
    s.retries = 0;
    const size_t end = std::min(count, (c + 1) * kQueryChunk);
    for (size_t at = c * kQueryChunk; at < end; ++at) {
      const size_t i = size_t(order[at] & 0xffffffffu);
      float p[3];
      query(i, p);
      float r0 = estimate_radius(tree, table, p[0], p[1], p[2]);
      if (at > c * kQueryChunk) {
        // The previous query's k neighbours are k points; the farthest of them from this query
        // bounds its k-th distance, more tightly than r_prev + |q - prev| does.
        float far2 = 0.0f;
        for (uint32_t slot : s.last_slots)
          far2 = std::max(far2, distance2(p[0], p[1], p[2], tree.x[slot], tree.y[slot], tree.z[slot]));
        r0 = std::min(r0, std::sqrt(far2));
      }
      if (std::isinf(r0)) r0 = table.radius;  // no bound at all: the conservative R
      const size_t out = row(i) * k;
      search_knn(tree, p[0], p[1], p[2], r0, config, s, &result.indices[out], &result.distances[out]);
    }
    chunk_candidates[c] = s.candidate_count;
    chunk_retries[c] = s.retries;
  });
  uint64_t candidates = 0;
  for (size_t c = 0; c < chunks; ++c) {
    candidates += chunk_candidates[c];
    result.stats.retries += chunk_retries[c];
  }
  result.stats.mean_candidates = double(candidates) / double(count);
  result.stats.search_ms = ms_since(start);
  return result;
}

}  // namespace

KnnResult knn_all(const KdTree& tree, const KnnParams& params) {
  // Query slot s of the tree's point order; its row is the point's input index.
  return run_queries(
      tree, tree.size(), params,
      [&](size_t s, float* p) {
        p[0] = tree.x[s];
        p[1] = tree.y[s];
        p[2] = tree.z[s];
      },
      [&](size_t s) { return size_t(tree.ids[s]); });
}

KnnResult knn(const KdTree& tree, std::span<const glm::vec3> queries, const KnnParams& params) {
  validate_points(queries, "query");
  return run_queries(
      tree, queries.size(), params,
      [&](size_t i, float* p) {
        p[0] = queries[i].x;
        p[1] = queries[i].y;
        p[2] = queries[i].z;
      },
      [](size_t i) { return i; });
}

}  // namespace meniscus::sim::kdtree
