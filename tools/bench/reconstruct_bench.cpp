// meniscus-bench reconstruct: multiresolution surface reconstruction of a point cloud (default
// the bunny scan shipped with the scenes), one JSON line per level: iterations, active tiles,
// wall time and the share spent evaluating the Barnes–Hut potential, and the error E (mean |φ|
// at the samples, % of the bounding-box diagonal), then one line for the whole run. --scheme,
// --gradient and --weights choose the evolution scheme, how V is taken from P, and the sample
// weights (reconstruction.h), so that each fix can be measured against what it replaced.
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "sim/common/mesh_reader.h"
#include "sim/reconstruct/reconstruction.h"
#include "tools/bench/bench_setup.h"

namespace meniscus::bench {
namespace {

struct Options {
  int threads = int(tbb::info::default_concurrency());
  std::string input = "scenes/data/vtk-data/bunny_points.ply";
  int start_depth = 5;
  int depth = 8;
  float alpha = 0.1f;
  std::string scheme = "upwind";      // upwind | weno5
  std::string gradient = "analytic";  // analytic | central (the paper's differences of P)
  int weight_neighbours = 16;         // 0: every sample weighs 1
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    auto level = [&]() {
      const std::string v = flags.value();
      const int n = std::atoi(v.c_str());
      if (n < 2 || n > 13) throw InputError(flag + ": expected a level in [2, 13], got '" + v + "'");
      return n;
    };
    if (flag == "--threads") o.threads = std::max(1, std::atoi(flags.value().c_str()));
    else if (flag == "--input") o.input = flags.value();
    else if (flag == "--depth") o.depth = level();
    else if (flag == "--start-depth") o.start_depth = level();
    else if (flag == "--alpha") o.alpha = std::strtof(flags.value().c_str(), nullptr);
    else if (flag == "--scheme") {
      o.scheme = flags.value();
      if (o.scheme != "upwind" && o.scheme != "weno5") throw InputError("--scheme: expected upwind or weno5, got '" + o.scheme + "'");
    } else if (flag == "--gradient") {
      o.gradient = flags.value();
      if (o.gradient != "analytic" && o.gradient != "central")
        throw InputError("--gradient: expected analytic or central, got '" + o.gradient + "'");
    } else if (flag == "--weights") {
      const std::string v = flags.value();
      o.weight_neighbours = std::atoi(v.c_str());
      if (o.weight_neighbours < 0 || o.weight_neighbours > 256)
        throw InputError("--weights: expected neighbours in [0, 256], got '" + v + "'");
    }
    else throw InputError("unknown flag '" + flag + "' for meniscus-bench reconstruct");
  }
  o.start_depth = std::min(o.start_depth, o.depth);
  return o;
}

}  // namespace

int run_reconstruct(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  const sim::TriangleMesh cloud = sim::read_mesh(o.input);
  std::vector<glm::vec3> points;
  for (const auto& v : cloud.vertices) points.emplace_back(v[0], v[1], v[2]);
  sim::reconstruct::ReconstructionParams params;
  params.coarsest = o.start_depth;
  params.finest = o.depth;
  params.alpha = o.alpha;
  params.scheme = o.scheme == "weno5" ? sim::levelset::Scheme::kWeno5 : sim::levelset::Scheme::kUpwind;
  params.gradient = o.gradient == "central" ? sim::reconstruct::GradientScheme::kCentral
                                            : sim::reconstruct::GradientScheme::kAnalytic;
  params.weight_neighbours = o.weight_neighbours;
  // What every line of this run starts with.
  const auto begin_line = [&](profile::JsonWriter& json) {
    json.begin_object();
    json.key("bench").value("reconstruct");
    json.key("input").value(o.input);
    json.key("points").value(uint64_t(points.size()));
    json.key("threads").value(uint64_t(o.threads));
    json.key("impl").value("cpu");
  };
  const auto start = std::chrono::steady_clock::now();
  const sim::reconstruct::Reconstruction r =
      sim::reconstruct::reconstruct_surface(points, params, o.input.c_str(), [&](const sim::reconstruct::LevelReport& l) {
        profile::JsonWriter json;
        begin_line(json);
        json.key("scheme").value(o.scheme);
        json.key("gradient").value(o.gradient);
        json.key("weight_neighbours").value(o.weight_neighbours);
        json.key("alpha").value(double(o.alpha));
        json.key("level").value(l.level);
        json.key("iterations").value(l.iterations);
        json.key("converged").value(l.converged ? "yes" : "no");
        json.key("tiles").value(uint64_t(l.tiles));
        json.key("level_s").value(l.seconds);
        json.key("potential_ms").value(l.potential_ms);
        json.key("potential_tiles").value(l.potential_tiles);
        json.key("ms_per_iteration").value(l.iterations ? 1e3 * l.seconds / l.iterations : 0.0);
        json.key("mean_abs_phi_voxels").value(l.mean_abs_phi);
        json.key("error_percent").value(l.error_percent);
        json.end_object();
        print_line(json);
      });
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  profile::JsonWriter json;
  begin_line(json);
  json.key("levels").value(std::to_string(o.start_depth) + ".." + std::to_string(o.depth));
  json.key("weights_ms").value(r.weights_ms);
  json.key("octree_ms").value(r.octree_ms);
  json.key("octree_nodes").value(uint64_t(r.octree_nodes));
  json.key("total_s").value(total);
  json.key("error_percent").value(r.levels.back().error_percent);
  json.end_object();
  print_line(json);
  return 0;
}

}  // namespace meniscus::bench
