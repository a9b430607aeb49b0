// meniscus-bench kdtree: kd-tree build plus the k nearest neighbours of every point, ours (CPU
// backend: Zhou et al. build, Algorithm 6/7 search in Morton order) against nanoflann in the
// same run on the same threads, for points in a cube and on a sphere. nanoflann gets its queries
// in the same Morton order (sorted before its clock starts). The k-th distances of both are
// compared, so a fast wrong answer cannot pass as a speed-up.
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "sim/kdtree/knn.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/peers.h"

namespace meniscus::bench {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

struct Options {
  int threads = int(tbb::info::default_concurrency());
  size_t points = 1000000;
  uint32_t k = 16;
  int repeat = 3;
  float traversal_cost = sim::kdtree::KdTreeParams{}.traversal_cost;
  std::vector<std::string> cases{"uniform", "sphere"};
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    auto positive = [&](const std::string& text, long long max) {
      char* end = nullptr;
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (!end || *end || v < 1 || v > max) throw InputError(flag + ": expected an integer in [1, " + std::to_string(max) + "], got '" + text + "'");
      return v;
    };
    if (flag == "--threads") o.threads = int(positive(flags.value(), 1024));
    else if (flag == "--points") o.points = size_t(positive(flags.value(), 100000000));
    else if (flag == "--k") o.k = uint32_t(positive(flags.value(), 256));
    else if (flag == "--repeat") o.repeat = int(positive(flags.value(), 100));
    else if (flag == "--traversal-cost") {
      const std::string text = flags.value();
      o.traversal_cost = std::strtof(text.c_str(), nullptr);
      if (!(o.traversal_cost >= 0.0f && o.traversal_cost <= 1000.0f)) throw InputError("--traversal-cost: expected a number in [0, 1000], got '" + text + "'");
    }
    else if (flag == "--cases") {
      o.cases.clear();
      for (const std::string& item : split_list(flags.value())) {
        if (item != "uniform" && item != "sphere") throw InputError("--cases: expected uniform or sphere, got '" + item + "'");
        o.cases.push_back(item);
      }
    } else throw InputError("kdtree: unknown flag '" + flag + "'");
  }
  return o;
}

std::vector<glm::vec3> make_points(const std::string& name, size_t n) {
  std::mt19937 rng(1234);
  std::vector<glm::vec3> p(n);
  if (name == "uniform") {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& v : p) v = {u(rng), u(rng), u(rng)};
  } else {
    std::normal_distribution<float> g(0.0f, 1.0f);
    for (auto& v : p) {
      glm::vec3 d(g(rng), g(rng), g(rng));
      while (glm::dot(d, d) < 1e-12f) d = {g(rng), g(rng), g(rng)};
      v = d / std::sqrt(glm::dot(d, d));
    }
  }
  return p;
}

std::vector<uint32_t> morton_order(const std::vector<glm::vec3>& p) {
  sim::kdtree::Aabb box = sim::kdtree::empty_box();
  for (const auto& v : p) sim::kdtree::grow(box, v.x, v.y, v.z);
  std::vector<uint64_t> keys(p.size());
  for (size_t i = 0; i < p.size(); ++i) keys[i] = (uint64_t(sim::kdtree::morton_code(box, p[i].x, p[i].y, p[i].z)) << 32) | i;
  std::sort(keys.begin(), keys.end());
  std::vector<uint32_t> order(p.size());
  for (size_t i = 0; i < p.size(); ++i) order[i] = uint32_t(keys[i]);
  return order;
}

}  // namespace

int run_kdtree(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  for (const std::string& name : o.cases) {
    const std::vector<glm::vec3> points = make_points(name, o.points);
    const std::vector<uint32_t> order = morton_order(points);

    double peer_build = 1e300, peer_knn = 1e300, peer_total = 1e300;
    std::vector<float> peer_kth;
    double build = 1e300, search = 1e300, total = 1e300;
    sim::kdtree::KdTree tree;
    sim::kdtree::KnnResult result;
    for (int r = 0; r < o.repeat; ++r) {
      if (auto peer = nanoflann_knn(points, o.k, order)) {
        peer_build = std::min(peer_build, peer->build_ms);
        peer_knn = std::min(peer_knn, peer->knn_ms);
        peer_total = std::min(peer_total, peer->build_ms + peer->knn_ms);
        peer_kth = std::move(peer->kth_distance);
      }
      auto start = Clock::now();
      tree = sim::kdtree::build_kdtree(points, sim::kdtree::KdTreeParams{.k = o.k, .traversal_cost = o.traversal_cost});
      const double b = ms_since(start);
      start = Clock::now();
      result = sim::kdtree::knn_all(tree, sim::kdtree::KnnParams{.k = o.k});
      const double s = ms_since(start);
      build = std::min(build, b);
      search = std::min(search, s);
      total = std::min(total, b + s);
    }

    const bool have_peer = !peer_kth.empty();
    double max_relative = 0;
    if (have_peer)
      for (size_t i = 0; i < points.size(); ++i) {
        const double ours = result.radius(i), theirs = peer_kth[i];
        max_relative = std::max(max_relative, std::abs(ours - theirs) / std::max(theirs, 1e-30));
      }
    auto common = [&](profile::JsonWriter& json, const char* impl) {
      json.begin_object();
      json.key("bench").value("kdtree");
      json.key("case").value(name == "uniform" ? "uniform_cube" : "sphere_surface");
      json.key("impl").value(impl);
      json.key("points").value(uint64_t(o.points));
      json.key("k").value(o.k);
      json.key("threads").value(uint64_t(o.threads));
      json.key("repeat_best_of").value(uint64_t(o.repeat));
    };
    if (have_peer) {
      profile::JsonWriter json;
      common(json, nanoflann_version());
      json.key("build_ms").value(peer_build);
      json.key("knn_ms").value(peer_knn);
      json.key("total_ms").value(peer_total);
      json.key("build_threads").value(uint64_t(1));
      json.key("query_order").value("morton");
      json.end_object();
      print_line(json);
    }
    profile::JsonWriter json;
    common(json, "meniscus-cpu");
    json.key("build_ms").value(build);
    json.key("knn_ms").value(search);
    json.key("total_ms").value(total);
    json.key("build_large_ms").value(tree.stats.large_ms);
    json.key("build_small_ms").value(tree.stats.small_ms);
    json.key("build_output_ms").value(tree.stats.output_ms);
    json.key("knn_estimate_ms").value(result.stats.estimate_ms);
    json.key("knn_order_ms").value(result.stats.order_ms);
    json.key("knn_search_ms").value(result.stats.search_ms);
    json.key("nodes").value(uint64_t(tree.nodes.size()));
    json.key("leaves").value(uint64_t(tree.stats.leaves));
    json.key("max_depth").value(uint64_t(tree.stats.max_depth));
    json.key("query_radius").value(double(tree.query_radius));
    json.key("mean_points_tested").value(result.stats.mean_points_tested);
    json.key("mean_nodes_visited").value(result.stats.mean_nodes_visited);
    json.key("retries").value(uint64_t(result.stats.retries));
    json.key("radius_nodes").value(uint64_t(result.stats.radius_nodes));
    json.key("traversal_cost").value(double(o.traversal_cost));
    if (have_peer) {
      json.key("max_kth_distance_rel_diff_vs_nanoflann").value(max_relative);
      json.key("speedup_vs_nanoflann").value(peer_total / total);
      json.key("build_speedup_vs_nanoflann").value(peer_build / build);
      json.key("knn_speedup_vs_nanoflann").value(peer_knn / search);
    }
    json.end_object();
    print_line(json);
  }
  return 0;
}

}  // namespace meniscus::bench
