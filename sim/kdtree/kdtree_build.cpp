// The CPU backend's build: validation, then the three stages of Algorithm 1.
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/kdtree/build_state.h"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

}  // namespace

void validate_points(std::span<const glm::vec3> points, const char* what) {
  if (points.size() >= size_t(std::numeric_limits<uint32_t>::max()))
    throw InputError("kdtree: " + std::to_string(points.size()) + " " + what + "s; at most 2^32 - 1 are supported");
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::vec3 p = points[i];
    if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) continue;
    const char* axis = !std::isfinite(p.x) ? "x" : (!std::isfinite(p.y) ? "y" : "z");
    const float bad = !std::isfinite(p.x) ? p.x : (!std::isfinite(p.y) ? p.y : p.z);
    throw InputError(std::string("kdtree: ") + what + " " + std::to_string(i) + " has a non-finite " + axis + " coordinate (" +
                     (std::isnan(bad) ? "nan" : (bad > 0 ? "inf" : "-inf")) + ")");
  }
}

void validate_build_params(const KdTreeParams& params) {
  if (params.k == 0) throw InputError("kdtree: k must be at least 1");
  if (!(params.query_radius >= 0.0f) || !std::isfinite(params.query_radius))
    throw InputError("kdtree: query_radius must be finite and >= 0");
  if (!(params.traversal_cost >= 0.0f) || !std::isfinite(params.traversal_cost))
    throw InputError("kdtree: traversal_cost must be finite and >= 0");
}

KdTree build_kdtree(std::span<const glm::vec3> points, const KdTreeParams& params) {
  validate_points(points);
  validate_build_params(params);
  KdTree tree;
  tree.k = params.k;
  if (points.empty()) return tree;

  BuildState state;
  const uint32_t n = uint32_t(points.size());
  state.points[0].resize(n);
  tbb::parallel_for(uint32_t(0), n, [&](uint32_t i) {
    state.points[0].x[i] = points[i].x;
    state.points[0].y[i] = points[i].y;
    state.points[0].z[i] = points[i].z;
    state.points[0].id[i] = i;
  });

  auto start = Clock::now();
  run_large_node_stage(state);
  state.stats.large_ms = ms_since(start);

  start = Clock::now();
  tree.query_radius = params.query_radius > 0.0f ? params.query_radius : estimate_query_radius(state, params.k);
  run_small_node_stage(state, tree.query_radius, params.traversal_cost);
  state.stats.small_ms = ms_since(start);

  start = Clock::now();
  tree.stats = state.stats;
  write_preorder(state, tree);
  tree.stats.output_ms = ms_since(start);
  return tree;
}

}  // namespace meniscus::sim::kdtree
