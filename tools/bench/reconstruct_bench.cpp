// meniscus-bench reconstruct: multiresolution surface reconstruction of a point cloud (default
// the bunny scan shipped with the scenes), one JSON line per level: iterations, active tiles,
// wall time and the share spent evaluating the Barnes–Hut potential, and the error E (mean |φ|
// at the samples, % of the bounding-box diagonal), then one line for the whole run. --scheme,
// --gradient and --weights choose the evolution scheme, how V is taken from P, and the sample
// weights (reconstruction.h), so that each fix can be measured against what it replaced.
// Where Open3D is installed, its screened Poisson reconstruction runs on the same points
// (--poisson-depth, default 9), and both surfaces are graded by the same yardstick nobody here
// wrote: Open3D's point-to-mesh distances from every input point to the extracted mesh, mean and
// worst as % of the points' bounding-box diagonal.
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "sim/common/mesh_reader.h"
#include "sim/reconstruct/reconstruction.h"
#include "sim/reconstruct/surface_distance.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/open3d_peer.h"

namespace meniscus::bench {
namespace reconstruct_bench {
namespace {

struct Options {
  int threads = int(tbb::info::default_concurrency());
  std::string input = "scenes/data/vtk-data/bunny_points.ply";
  int start_depth = 5;
  int depth = 8;
  float alpha = sim::reconstruct::ReconstructionParams{}.alpha;
  std::string scheme = "upwind";      // upwind | weno5
  std::string gradient = "analytic";  // analytic | central (the paper's differences of P)
  int weight_neighbours = sim::reconstruct::ReconstructionParams{}.weight_neighbours;  // 0: every sample weighs 1
  float lost_distance = sim::reconstruct::ReconstructionParams{}.lost_distance;  // 0: lost samples are not put back
  float gap_slowdown = sim::reconstruct::ReconstructionParams{}.gap_slowdown;    // 0: unit speed at the finest level
  int fit_iterations = sim::reconstruct::SampleFitParams{}.iterations;  // 0: the surface is not fitted to the samples
  int finest_repasses = sim::reconstruct::ReconstructionParams{}.finest_repasses;  // 0: the finest level evolved once
  int poisson_depth = 9;              // 0: no Poisson peer
  std::string poisson_normals = "faces";  // faces (the scan's own, when it has faces) | estimate
  std::string mesh_output;                // --mesh: our surface as .ply/.obj, to look at
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--input") o.input = flags.value();
    else if (flag == "--depth")
      o.depth = flags.integer(2, 13, "a level");
    else if (flag == "--start-depth")
      o.start_depth = flags.integer(2, 13, "a level");
    else if (flag == "--alpha")
      o.alpha = float(flags.number(0, 10, "the curvature weight"));
    else if (flag == "--lost-distance")
      o.lost_distance = float(flags.number(0, 1000, "voxels; 0: lost samples stay lost"));
    else if (flag == "--scheme") {
      o.scheme = flags.value();
      if (o.scheme != "upwind" && o.scheme != "weno5") throw InputError("--scheme: expected upwind or weno5, got '" + o.scheme + "'");
    } else if (flag == "--gradient") {
      o.gradient = flags.value();
      if (o.gradient != "analytic" && o.gradient != "central")
        throw InputError("--gradient: expected analytic or central, got '" + o.gradient + "'");
    } else if (flag == "--weights") {
      o.weight_neighbours = flags.integer(0, 256, "neighbours; 0: every sample weighs 1");
    } else if (flag == "--gap-slowdown") {
      o.gap_slowdown = float(flags.number(0, 1e6, "finest-grid voxels; 0: unit speed"));
    } else if (flag == "--finest-repasses") {
      o.finest_repasses = flags.integer(0, 8, "0: the finest level evolved once");
    } else if (flag == "--fit-iterations") {
      o.fit_iterations = flags.integer(0, 100, "0: no fit to the samples");
    } else if (flag == "--poisson-depth") {
      o.poisson_depth = flags.integer(0, 12, "0: no Poisson peer");
    } else if (flag == "--mesh") {
      o.mesh_output = flags.value();
    } else if (flag == "--poisson-normals") {
      o.poisson_normals = flags.value();
      if (o.poisson_normals != "faces" && o.poisson_normals != "estimate")
        throw InputError("--poisson-normals: expected faces or estimate, got '" + o.poisson_normals + "'");
    } else
      throw InputError("unknown flag '" + flag + "' for meniscus-bench reconstruct");
  }
  o.start_depth = std::min(o.start_depth, o.depth);
  return o;
}

// Area-weighted vertex normals of the scan's own faces (what Poisson needs and our method does
// without); empty for a cloud without faces.
std::vector<glm::vec3> scan_normals(const sim::TriangleMesh& scan) {
  if (scan.triangles.empty()) return {};
  std::vector<glm::vec3> normals(scan.vertices.size(), glm::vec3(0.0f));
  auto at = [&](uint32_t i) { return glm::vec3(scan.vertices[i][0], scan.vertices[i][1], scan.vertices[i][2]); };
  for (const auto& t : scan.triangles) {
    const glm::vec3 n = glm::cross(at(t[1]) - at(t[0]), at(t[2]) - at(t[0]));
    for (uint32_t i : t) normals[i] += n;
  }
  for (glm::vec3& n : normals) {
    const float length = glm::length(n);
    n = length > 0.0f ? n / length : glm::vec3(0.0f, 0.0f, 1.0f);
  }
  return normals;
}

// Mean and worst distance from the points to the mesh, % of `diagonal`, by Open3D's distances;
// nothing without Open3D.
void write_accuracy(profile::JsonWriter& json, std::span<const glm::vec3> vertices, std::span<const glm::uvec3> triangles,
                    std::span<const glm::vec3> points, double diagonal) {
  const auto distances = open3d_distances_to_mesh(vertices, triangles, points);
  if (!distances) return;
  const sim::reconstruct::SurfaceAccuracy a = sim::reconstruct::summarise_distances(*distances, diagonal);
  json.key("surface_distance_by").value(open3d_version());
  json.key("surface_mean_percent").value(a.mean_percent);
  json.key("surface_max_percent").value(a.max_percent);
  json.key("surface_median_percent").value(a.median_percent);
  json.key("surface_p99_percent").value(a.p99_percent);
}

}  // namespace
}  // namespace reconstruct_bench

int run_reconstruct(int argc, char** argv) {
  using namespace reconstruct_bench;  // this file's helpers
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
  params.lost_distance = o.lost_distance;
  params.fit.iterations = o.fit_iterations;
  params.gap_slowdown = o.gap_slowdown;
  params.finest_repasses = o.finest_repasses;
  // What every line of this run starts with.
  const auto begin_line = [&](profile::JsonWriter& json, const std::string& impl = "cpu") {
    json.begin_object();
    json.key("bench").value("reconstruct");
    json.key("input").value(o.input);
    json.key("points").value(uint64_t(points.size()));
    json.key("threads").value(uint64_t(o.threads));
    json.key("impl").value(impl);
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
        json.key("lost_distance").value(double(o.lost_distance));
        json.key("gap_slowdown").value(double(o.gap_slowdown));
        json.key("fit_iterations").value(o.fit_iterations);
        json.key("finest_repasses").value(o.finest_repasses);
        json.key("level").value(l.level);
        json.key("pass").value(l.pass);
        json.key("iterations").value(l.iterations);
        json.key("converged").value(l.converged ? "yes" : "no");
        json.key("reseeded").value(uint64_t(l.reseeded));
        json.key("cavities").value(uint64_t(l.cavities));
        json.key("speck_voxels").value(uint64_t(l.speck_voxels));
        json.key("hole_voxels").value(uint64_t(l.hole_voxels));
        if (l.fitted_samples) {
          json.key("fitted_samples").value(uint64_t(l.fitted_samples));
          json.key("fit_residual_before_voxels").value(l.fit_residual_before);
          json.key("fit_residual_after_voxels").value(l.fit_residual_after);
        }
        json.key("tiles").value(uint64_t(l.tiles));
        json.key("level_s").value(l.seconds);
        json.key("potential_ms").value(l.potential_ms);
        json.key("potential_tiles").value(l.potential_tiles);
        json.key("ms_per_iteration").value(l.iterations ? 1e3 * l.seconds / l.iterations : 0.0);
        json.key("mean_abs_phi_voxels").value(l.mean_abs_phi);
        json.key("error_percent").value(l.error_percent);
        json.key("distance_mean_percent").value(l.mean_distance_percent);
        json.key("distance_max_percent").value(l.max_distance_percent);
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
  const sim::IndexedMesh mesh = sim::reconstruct::extract_surface(r, o.input.c_str());
  json.key("mesh_triangles").value(uint64_t(mesh.triangles.size()));
  // Our own exact distances (surface_distance.h) beside Open3D's, which check them.
  const sim::reconstruct::SurfaceAccuracy own = sim::reconstruct::surface_accuracy(mesh, points, r.frame.diagonal());
  json.key("own_surface_mean_percent").value(own.mean_percent);
  json.key("own_surface_max_percent").value(own.max_percent);
  const glm::vec3 worst = points[own.worst_sample];
  json.key("worst_sample").value(std::to_string(worst.x) + "," + std::to_string(worst.y) + "," + std::to_string(worst.z));
  if (!o.mesh_output.empty()) sim::write_mesh(o.mesh_output, mesh);
  write_accuracy(json, mesh.positions, mesh.triangles, points, r.frame.diagonal());
  json.end_object();
  print_line(json);

  if (o.poisson_depth == 0) return 0;
  const std::vector<glm::vec3> normals = o.poisson_normals == "faces" ? scan_normals(cloud) : std::vector<glm::vec3>{};
  const auto poisson = open3d_poisson(points, normals, o.poisson_depth, o.threads);
  if (!poisson) return 0;
  profile::JsonWriter peer;
  begin_line(peer, std::string(open3d_version()) + "-poisson");
  peer.key("depth").value(o.poisson_depth);
  peer.key("normals").value(normals.empty() ? "estimated and oriented by Open3D (16 neighbours)" : "the scan's faces");
  peer.key("normals_ms").value(poisson->normals_ms);
  peer.key("poisson_ms").value(poisson->poisson_ms);
  peer.key("total_s").value(1e-3 * (poisson->normals_ms + poisson->poisson_ms));
  peer.key("mesh_triangles").value(uint64_t(poisson->triangles.size()));
  write_accuracy(peer, poisson->vertices, poisson->triangles, points, r.frame.diagonal());
  peer.end_object();
  print_line(peer);
  return 0;
}

}  // namespace meniscus::bench
