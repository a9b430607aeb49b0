// meniscus-bench kdtree: kd-tree build plus the k nearest neighbours of every point, ours (CPU
// backend: Zhou et al. build, Algorithm 6/7 search in Morton order) against nanoflann in the
// same run on the same threads, for points in a cube and on a sphere, and against Open3D's
// KD-tree where it is installed. The peers get their queries in the same Morton order (sorted
// before their clocks start). The k-th distances of all are compared, so a fast wrong answer
// cannot pass as a speed-up.
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
#include "engine/profile/cpu_timer.h"
#include "engine/profile/json_writer.h"
#include "sim/kdtree/knn.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/open3d_peer.h"
#include "tools/bench/peers.h"

namespace meniscus::bench {
namespace kdtree_bench {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

struct Options {
  int threads = int(tbb::info::default_concurrency());
  size_t points = 1000000;
  uint32_t k = 16;
  int repeat = 3;
  float traversal_cost = sim::kdtree::KdTreeParams{}.traversal_cost;
  sim::kdtree::KnnKernels kernels = sim::kdtree::KnnKernels::kFastest;
  std::vector<std::string> cases{"uniform", "sphere"};
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--points")
      o.points = size_t(flags.integer(1, 100000000));
    else if (flag == "--k")
      o.k = uint32_t(flags.integer(1, 256));
    else if (flag == "--repeat")
      o.repeat = flags.integer(1, 100);
    else if (flag == "--traversal-cost")
      o.traversal_cost = float(flags.number(0, 1000));
    else if (flag == "--kernels") {
      const std::string text = flags.value();
      if (text == "fastest") o.kernels = sim::kdtree::KnnKernels::kFastest;
      else if (text == "baseline") o.kernels = sim::kdtree::KnnKernels::kBaseline;
      else throw InputError("--kernels: expected fastest or baseline, got '" + text + "'");
    } else if (flag == "--cases") {
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
}  // namespace kdtree_bench

int run_kdtree(int argc, char** argv) {
  using namespace kdtree_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  for (const std::string& name : o.cases) {
    const std::vector<glm::vec3> points = make_points(name, o.points);
    const std::vector<uint32_t> order = morton_order(points);

    // A peer's best times over the repeats and its k-th distances.
    struct PeerBest {
      const char* name;    // the impl it prints
      const char* suffix;  // of the comparison keys on our line
      double build = 1e300, knn = 1e300, total = 1e300;
      std::vector<float> kth;
      void add(std::optional<KnnPeerResult> run) {
        if (!run) return;
        build = std::min(build, run->build_ms);
        knn = std::min(knn, run->knn_ms);
        total = std::min(total, run->build_ms + run->knn_ms);
        kth = std::move(run->kth_distance);
      }
    };
    PeerBest peers[] = {{nanoflann_version(), "nanoflann"}, {open3d_version(), "open3d"}};
    double build = 1e300, search = 1e300, total = 1e300;
    sim::kdtree::KdTree tree;
    sim::kdtree::KnnResult result;
    for (int r = 0; r < o.repeat; ++r) {
      peers[0].add(nanoflann_knn(points, o.k, order));
      peers[1].add(open3d_knn(points, o.k, order));
      auto start = Clock::now();
      tree = sim::kdtree::build_kdtree(points, sim::kdtree::KdTreeParams{.k = o.k, .traversal_cost = o.traversal_cost});
      const double b = ms_since(start);
      start = Clock::now();
      result = sim::kdtree::knn_all(tree, sim::kdtree::KnnParams{.k = o.k, .kernels = o.kernels});
      const double s = ms_since(start);
      build = std::min(build, b);
      search = std::min(search, s);
      total = std::min(total, b + s);
    }

    // The largest relative difference of our k-th distances from a peer's.
    auto max_relative_diff = [&](const std::vector<float>& theirs) {
      double worst = 0;
      for (size_t i = 0; i < points.size(); ++i)
        worst = std::max(worst, std::abs(double(result.radius(i)) - theirs[i]) / std::max(double(theirs[i]), 1e-30));
      return worst;
    };
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
    for (const PeerBest& peer : peers) {
      if (peer.kth.empty()) continue;
      profile::JsonWriter json;
      common(json, peer.name);
      json.key("build_ms").value(peer.build);
      json.key("knn_ms").value(peer.knn);
      json.key("total_ms").value(peer.total);
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
    json.key("knn_kernels").value(result.stats.kernels);
    json.key("nodes").value(uint64_t(tree.nodes.size()));
    json.key("leaves").value(uint64_t(tree.stats.leaves));
    json.key("max_depth").value(uint64_t(tree.stats.max_depth));
    json.key("query_radius").value(double(tree.query_radius));
    json.key("mean_points_tested").value(result.stats.mean_points_tested);
    json.key("mean_nodes_visited").value(result.stats.mean_nodes_visited);
    json.key("retries").value(uint64_t(result.stats.retries));
    json.key("radius_nodes").value(uint64_t(result.stats.radius_nodes));
    json.key("traversal_cost").value(double(o.traversal_cost));
    for (const PeerBest& peer : peers) {
      if (peer.kth.empty()) continue;
      const std::string vs = std::string("_vs_") + peer.suffix;
      json.key("max_kth_distance_rel_diff" + vs).value(max_relative_diff(peer.kth));
      json.key("speedup" + vs).value(peer.total / total);
      json.key("build_speedup" + vs).value(peer.build / build);
      json.key("knn_speedup" + vs).value(peer.knn / search);
    }
    json.end_object();
    print_line(json);
  }
  return 0;
}

}  // namespace meniscus::bench
