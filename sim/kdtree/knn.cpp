// KNN over many queries on the CPU: Algorithm 7's radii, queries in a coherent order (the tree's
// own points in leaf order, arbitrary queries sorted by Morton code), then
// fixed chunks of consecutive queries in parallel, each chunk as packets of kPacketSize
// consecutive queries (knn_packet.h). Every query's r0 is Algorithm 7's bound. Chunks are fixed
// in size, not by thread count, and the answer does not depend on r0 or on the packets (each
// query keeps its own exact list), only the work does.
#include "sim/kdtree/knn.h"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <chrono>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/kdtree/knn_packet.h"
#include "sim/kdtree/radius_estimate.h"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

constexpr uint32_t kQueryChunk = 128;

template <class T>
void prefetch_row(const T* row, uint32_t k) {
  const char* begin = reinterpret_cast<const char*>(row);
  const char* end = reinterpret_cast<const char*>(row + k);
  for (const char* at = begin; at < end; at += 64) __builtin_prefetch(at, 1);
  __builtin_prefetch(end - 1, 1);
}

void validate(const KnnParams& params) {
  if (params.k == 0) throw InputError("kdtree knn: k must be at least 1");
  if (params.histogram_bins < 2 || params.histogram_bins > kMaxHistogramBins)
    throw InputError("kdtree knn: histogram_bins must be in [2, " + std::to_string(kMaxHistogramBins) + "], got " +
                     std::to_string(params.histogram_bins));
  if (!(params.alpha > 0.0f) || !std::isfinite(params.alpha))
    throw InputError("kdtree knn: alpha must be finite and > 0");
}

// Runs `count` queries; `query(i, xyz)` gives query i's position and `row(i)` its output row.
// `own_points`: the queries are the tree's own points in leaf order, so queries i and i + 1 are
// already near each other (they are not sorted first) and each is among the points.
template <class Query, class Row>
KnnResult run_queries(const KdTree& tree, size_t count, const KnnParams& params, bool own_points, Query query,
                      Row row) {
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

  start = Clock::now();
  std::vector<uint64_t> order;  // empty: query i is the i-th
  if (!own_points) {
    // Morton order: code in the high bits, query number in the low ones (unique keys, so the
    // unstable parallel sort gives one order).
    order.resize(count);
    const KdNode& root = tree.nodes[0];
    const Aabb box{{root.lo[0], root.lo[1], root.lo[2]}, {root.hi[0], root.hi[1], root.hi[2]}};
    tbb::parallel_for(size_t(0), count, [&](size_t i) {
      float p[3];
      query(i, p);
      order[i] = (uint64_t(morton_code(box, p[0], p[1], p[2])) << 32) | uint64_t(i);
    });
    tbb::parallel_sort(order.begin(), order.end());
  }
  result.stats.order_ms = ms_since(start);

  start = Clock::now();
  const size_t chunks = (count + kQueryChunk - 1) / kQueryChunk;
  std::vector<uint64_t> chunk_tested(chunks), chunk_visited(chunks), chunk_retries(chunks);
  struct Scratch {
    SearchScratch single;
    PacketScratch lists;
  };
  tbb::enumerable_thread_specific<Scratch> scratch([&] { return Scratch{SearchScratch(tree, k), PacketScratch(k)}; });
  tbb::parallel_for(size_t(0), chunks, [&](size_t c) {
    Scratch& thread = scratch.local();
    SearchScratch& s = thread.single;
    s.points_tested = s.nodes_visited = s.retries = 0;
    const size_t end = std::min(count, (c + 1) * kQueryChunk);
    QueryPacket packet;
    uint32_t* rows_indices[kPacketSize];
    float* rows_distances[kPacketSize];
    for (size_t first = c * kQueryChunk; first < end; first += kPacketSize) {
      packet.count = uint32_t(std::min<size_t>(kPacketSize, end - first));
      for (uint32_t l = 0; l < packet.count; ++l) {
        const size_t i = order.empty() ? first + l : size_t(order[first + l] & 0xffffffffu);
        float p[3];
        query(i, p);
        packet.x[l] = p[0];
        packet.y[l] = p[1];
        packet.z[l] = p[2];
        float r0 = estimate_radius(tree, table, p[0], p[1], p[2]);
        if (std::isinf(r0) && !own_points) r0 = holding_k_radius(tree, k, p[0], p[1], p[2]);
        if (std::isinf(r0)) r0 = table.radius;  // no bound at all: the conservative R
        packet.r0[l] = r0;
        rows_indices[l] = &result.indices[row(i) * k];
        rows_distances[l] = &result.distances[row(i) * k];
        // Rows are in input order, scattered over memory: fetch them while the packet searches.
        prefetch_row(rows_indices[l], k);
        prefetch_row(rows_distances[l], k);
      }
      search_knn_packet(tree, packet, k, params.kernels, s, thread.lists, rows_indices, rows_distances);
    }
    chunk_tested[c] = s.points_tested;
    chunk_visited[c] = s.nodes_visited;
    chunk_retries[c] = s.retries;
  });
  uint64_t tested = 0, visited = 0;
  for (size_t c = 0; c < chunks; ++c) {
    tested += chunk_tested[c];
    visited += chunk_visited[c];
    result.stats.retries += chunk_retries[c];
  }
  result.stats.mean_points_tested = double(tested) / double(count);
  result.stats.mean_nodes_visited = double(visited) / double(count);
  result.stats.search_ms = ms_since(start);
  result.stats.kernels = knn_kernels_name(params.kernels);
  return result;
}

}  // namespace

KnnResult knn_all(const KdTree& tree, const KnnParams& params) {
  // Query slot s of the tree's point order; its row is the point's input index.
  return run_queries(
      tree, tree.size(), params, true,
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
      tree, queries.size(), params, false,
      [&](size_t i, float* p) {
        p[0] = queries[i].x;
        p[1] = queries[i].y;
        p[2] = queries[i].z;
      },
      [](size_t i) { return i; });
}

}  // namespace meniscus::sim::kdtree
