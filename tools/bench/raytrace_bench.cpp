// meniscus-bench raytrace: per frame, a kd-tree built from scratch over the frame's triangles
// and a Whitted trace of the frame (primary rays, one shadow ray at the floor, reflection and
// refraction two bounces deep) — ours (Zhou et al. 2008's SAH kd-tree) against Embree 3's BVH
// built from scratch with the same triangles at LOW and MEDIUM quality, on the same thread
// count, tracing the same rays through the same tracer; each side keeps its memory (our
// builder's, Embree's scene and buffers) from frame to frame. Cases: a water surface that changes
// every frame (the dynamic case), Lucy, the bunny when ../shared/data has it, or --mesh FILE.
// Each JSON line carries impl, build_ms, trace_ms and hits (primary rays that hit), so the
// implementations can be checked against each other on any mesh. Zhou et al.'s Table 2 line:
// the same case's last frame with an offline full-SAH tree (impl meniscus-kdtree-full-sah, its
// medians over that one frame), its SAH cost and trace time beside the per-frame build's. Where
// a CUDA device answers, the frame wholly on it (impl meniscus-kdtree-cuda: the mesh copied over,
// the same tree built there and traced there); where none does, a line saying it was skipped
// and why. Our lines also carry the frame's caustic as the refraction scenes make it (Zhou et
// al. §5: photons from the sun through the mesh, their kd-tree and the KNN estimate on the
// floor, the scenes' defaults): caustic_ms in all, caustic_tree_ms of it the photon tree's
// build, the photons stored and the caustic's mean irradiance, which the two backends share.
#include <tbb/info.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <glm/geometric.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/app/png_io.h"
#include "engine/core/data_files.h"
#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/common/mesh_reader.h"
#include "sim/kdtree/full_sah_kdtree.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/kdtree/triangle_packet.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons_cuda.h"
#include "sim/photon/water_block.h"
#include "sim/raytrace/refraction_frame.h"
#include "sim/raytrace/whitted_cuda.h"
#include "sim/raytrace/whitted_tracer.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/embree_peer.h"

namespace meniscus::bench {
namespace raytrace_bench {
namespace {

struct Options {
  int threads = int(tbb::info::default_concurrency());
  uint32_t size = 1024;
  int frames = 3;
  uint32_t grid = 256;  // the water surface's cells per side
  std::vector<std::string> cases{"water", "lucy", "bunny"};
  std::string mesh;
  std::string png;  // our first frame of each case, as <png>-<case>.png
  // --kernels: our build's small stage with AVX-512 and our rays in packets where the CPU has
  // them (fastest), or the portable small stage and single rays (baseline).
  bool simd = true;
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--size")
      o.size = uint32_t(flags.integer(1, 8192));
    else if (flag == "--frames")
      o.frames = flags.integer(1, 1000);
    else if (flag == "--grid")
      o.grid = uint32_t(flags.integer(1, 4096));
    else if (flag == "--mesh") o.mesh = flags.value(), o.cases = {"mesh"};
    else if (flag == "--png") o.png = flags.value();
    else if (flag == "--kernels") {
      const std::string text = flags.value();
      if (text != "fastest" && text != "baseline")
        throw InputError("--kernels: expected fastest or baseline, got '" + text + "'");
      o.simd = text == "fastest";
    } else if (flag == "--cases") {
      o.cases = split_list(flags.value());
      for (const std::string& c : o.cases)
        if (c != "water" && c != "lucy" && c != "bunny") throw InputError("--cases: expected water, lucy or bunny, got '" + c + "'");
    } else {
      throw InputError("unknown flag '" + flag + "'");
    }
  }
  return o;
}

struct Frame {
  std::vector<glm::vec3> vertices;
  std::vector<uint32_t> indices;
};

// Waves on a pool of water, different every frame: every triangle of the top moves.
Frame water_frame(uint32_t grid, int frame) {
  const float t = 0.05f * float(frame);
  sim::photon::TriangleSoup soup = sim::photon::water_block(grid, {-1.0f, -1.0f}, {1.0f, 1.0f}, 0.0f, [t](float x, float z) {
    return 0.5f + 0.04f * std::sin(6.0f * x + 3.0f * t) * std::cos(5.0f * z - 2.0f * t) +
           0.015f * std::sin(23.0f * (x + z) + 7.0f * t);
  });
  return {std::move(soup.vertices), std::move(soup.indices)};
}

Frame read_frame(const std::filesystem::path& file) {
  const sim::TriangleMesh m = sim::read_mesh(file);
  Frame f;
  for (const auto& v : m.vertices) f.vertices.push_back({v[0], v[1], v[2]});
  for (const auto& t : m.triangles) f.indices.insert(f.indices.end(), t.begin(), t.end());
  if (f.indices.empty()) throw InputError(file.string() + ": no triangles to trace");
  return f;
}

// The floor just under the mesh, its tiles and the water's absorption scaled to the mesh (a
// scan in millimetres is as clear as a pool in metres), the camera framing its bounding box
// from above and aside.
sim::raytrace::TraceCamera framing(const Frame& f, sim::raytrace::TraceScene& scene, sim::photon::Optics& optics) {
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (const glm::vec3& v : f.vertices) lo = glm::min(lo, v), hi = glm::max(hi, v);
  const float size = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  scene.floor_y = lo.y - 0.01f * (hi.y - lo.y);
  scene.floor_tile = 0.05f * size;
  optics.media[1].absorption *= 2.0f / size;
  scene.optics = &optics;
  const glm::vec3 centre = 0.5f * (lo + hi);
  const float radius = 0.5f * glm::length(hi - lo);
  return {centre + radius * glm::vec3(0.9f, 1.1f, 1.8f), centre, 40.0f};
}

// Linear radiance to 8-bit sRGB-ish (gamma 2.2), clamped.
void write_image(const sim::raytrace::TraceImage& image, const std::string& path) {
  RgbaImage out{image.width, image.height, std::vector<uint8_t>(size_t(image.width) * image.height * 4)};
  for (size_t i = 0; i < image.rgb.size(); ++i) {
    for (int c = 0; c < 3; ++c)
      out.pixels[4 * i + c] = uint8_t(255.0f * std::pow(std::clamp(image.rgb[i][c], 0.0f, 1.0f), 1.0f / 2.2f) + 0.5f);
    out.pixels[4 * i + 3] = 255;
  }
  write_png(path, out);
}

template <class T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Sample {
  std::vector<double> build_ms, trace_ms;
  uint64_t hits = 0, rays = 0;
  double sah_cost = -1.0;
  std::vector<double> caustic_ms, caustic_tree_ms;
  uint32_t photons_stored = 0;
  double caustic_mean = 0.0;

  void add_caustic(double ms, const sim::photon::CausticImage& image, uint32_t stored) {
    caustic_ms.push_back(ms);
    caustic_tree_ms.push_back(image.tree_ms);
    photons_stored = stored;
    caustic_mean = image.mean();
  }

  // One frame: its build time and its trace (the counts are the last frame's).
  void add(double build, const sim::raytrace::TraceImage& image) {
    build_ms.push_back(build);
    trace_ms.push_back(image.stats.ms);
    hits = image.stats.hits;
    rays = image.stats.primary + image.stats.secondary + image.stats.shadow;
  }
};

sim::kdtree::RayKernels ray_kernels(const Options& o) {
  return o.simd ? sim::kdtree::RayKernels::kFastest : sim::kdtree::RayKernels::kSingle;
}

void print(const Options& o, const std::string& name, size_t triangles, const std::string& impl, const Sample& s) {
  profile::JsonWriter json;
  json.begin_object();
  json.key("bench").value("raytrace");
  json.key("case").value(name);
  json.key("triangles").value(uint64_t(triangles));
  json.key("impl").value(impl);
  json.key("threads").value(uint64_t(o.threads));
  json.key("size").value(std::to_string(o.size) + "x" + std::to_string(o.size));
  json.key("frames").value(uint64_t(o.frames));
  if (impl == "meniscus-kdtree")  // the small stage's code (the full-SAH build has none)
    json.key("build_kernels").value(sim::kdtree::triangle_build_kernels({.cpu_simd = o.simd}));
  if (impl.starts_with("meniscus-kdtree"))
    json.key("trace_kernels").value(sim::kdtree::ray_kernels_name(ray_kernels(o)));
  json.key("build_ms").value(median(s.build_ms));
  json.key("trace_ms").value(median(s.trace_ms));
  json.key("frame_ms").value(median(s.build_ms) + median(s.trace_ms));
  json.key("hits").value(s.hits);
  json.key("rays").value(s.rays);
  json.key("mrays_per_s").value(double(s.rays) / (median(s.trace_ms) * 1e3));
  if (s.sah_cost >= 0.0) json.key("sah_cost").value(s.sah_cost);
  if (!s.caustic_ms.empty()) {
    json.key("caustic_ms").value(median(s.caustic_ms));
    json.key("caustic_tree_ms").value(median(s.caustic_tree_ms));
    json.key("photons").value(uint64_t(sim::raytrace::RefractionView{}.photons));
    json.key("photons_stored").value(uint64_t(s.photons_stored));
    json.key("caustic_mean").value(s.caustic_mean);
  }
  json.end_object();
  print_line(json);
}

// The frame on a CUDA device: build_ms is the mesh's copy to the device and the device build,
// trace_ms the trace until it is done (the image stays on the device in a frame).
constexpr const char* kCudaImpl = "meniscus-kdtree-cuda";

// An empty sample when a CUDA device answers; otherwise none, and a line saying why.
std::optional<Sample> cuda_sample(const std::string& name) {
  try {
    sim::raytrace::WhittedCuda probe;
    return Sample{};
  } catch (const DeviceError& e) {
    profile::JsonWriter json;
    json.begin_object();
    json.key("bench").value("raytrace");
    json.key("case").value(name);
    json.key("impl").value(kCudaImpl);
    json.key("skipped").value(e.what());
    json.end_object();
    print_line(json);
    return std::nullopt;
  }
}

void run_case(const Options& o, const std::string& name) {
  std::filesystem::path file;
  if (name == "lucy") file = "scenes/data/vtk-data/lucy.ply";
  if (name == "mesh") file = o.mesh;
  if (name == "bunny") {
    try {
      file = find_data_file("vtk-data/bunny.ply");
    } catch (const InputError& e) {
      std::fprintf(stderr, "meniscus-bench raytrace: bunny skipped: %s\n", e.what());
      return;
    }
  }
  const Frame still = file.empty() ? Frame{} : read_frame(file);
  const std::vector<std::string> peers{"embree-low", "embree-medium"};
  Sample ours, full;
  std::vector<Sample> theirs(peers.size());
  size_t triangles = 0;
  bool have_embree = true;
  std::optional<Sample> cuda = cuda_sample(name);
  // Each side keeps what a renderer of a changing mesh keeps from frame to frame: our builder's
  // memory, Embree's device, scene and buffers.
  sim::kdtree::TriangleKdBuilder builder;
  std::vector<std::unique_ptr<EmbreeScene>> embree;
  for (const std::string& peer : peers) {
    embree.push_back(embree_scene(peer == "embree-low" ? "low" : "medium", o.threads));
    if (!embree.back()) have_embree = false;
  }
  for (int frame = 0; frame < o.frames; ++frame) {
    const Frame f = file.empty() ? water_frame(o.grid, frame) : still;
    triangles = f.indices.size() / 3;
    sim::raytrace::TraceScene scene;
    scene.vertices = f.vertices;
    scene.indices = f.indices;
    sim::photon::Optics optics;
    const sim::raytrace::TraceCamera camera = framing(f, scene, optics);
    const sim::raytrace::TraceParams params{o.size, o.size, 2};

    // The SAH cost is counted after the timed build, as Embree's build is timed without one.
    const sim::kdtree::TriangleKdParams build_params{.cpu_simd = o.simd, .stats = false};
    const sim::kdtree::TriangleKdTree& tree = builder.build(f.vertices, f.indices, build_params);
    const sim::raytrace::KdTreeIntersector kd(tree, ray_kernels(o));
    scene.surface = &kd;
    const sim::raytrace::TraceImage image = sim::raytrace::trace_image(scene, camera, params);
    ours.add(tree.stats.build_ms, image);
    const sim::raytrace::RefractionView view;
    const sim::raytrace::FrameLight light = sim::raytrace::frame_light(f.vertices, view);
    const sim::photon::RefractingSurface refracting{f.vertices, f.indices, &tree, &optics};
    const sim::photon::PhotonParams photon_params{.photons = view.photons};
    {
      const auto start = std::chrono::steady_clock::now();
      const sim::photon::CausticPhotons photons =
          sim::photon::trace_caustic_photons(refracting, light.sun, light.floor_y, photon_params);
      const sim::photon::CausticImage caustic =
          sim::photon::estimate_caustics(photons, light.caustic_grid, view.photon_neighbours);
      ours.add_caustic(profile::ms_since(start), caustic, photons.stored);
    }
    if (cuda) {
      double device_build_ms = 0.0;
      const sim::raytrace::TraceImage on_device =
          sim::raytrace::build_and_trace_cuda(scene, camera, params, device_build_ms);
      cuda->add(device_build_ms, on_device);
      double caustic_ms = 0.0;
      sim::photon::CausticPhotons photons;
      const sim::photon::CausticImage caustic =
          sim::photon::estimate_caustics_cuda(refracting, light.sun, light.floor_y, photon_params, light.caustic_grid,
                                              view.photon_neighbours, caustic_ms, photons);
      cuda->add_caustic(caustic_ms, caustic, photons.stored);
    }
    if (frame == 0 && !o.png.empty()) write_image(image, o.png + "-" + name + ".png");
    if (frame + 1 == o.frames) {  // Table 2's yardstick, once: exact SAH at every node, the last frame's rays
      ours.sah_cost = sim::kdtree::measure_triangle_kdtree(tree, build_params.traversal_cost).sah_cost;
      const sim::kdtree::TriangleKdTree full_tree = sim::kdtree::build_full_sah_kdtree(f.vertices, f.indices);
      const sim::raytrace::KdTreeIntersector full_kd(full_tree, ray_kernels(o));
      scene.surface = &full_kd;
      full.add(full_tree.stats.build_ms, sim::raytrace::trace_image(scene, camera, params));
      full.sah_cost = full_tree.stats.sah_cost;
    }

    for (size_t p = 0; p < peers.size() && have_embree; ++p) {
      embree[p]->rebuild(f.vertices, f.indices);
      scene.surface = &embree[p]->intersector();
      theirs[p].add(embree[p]->build_ms, sim::raytrace::trace_image(scene, camera, params));
    }
  }
  print(o, name, triangles, "meniscus-kdtree", ours);
  if (cuda) print(o, name, triangles, kCudaImpl, *cuda);
  print(o, name, triangles, "meniscus-kdtree-full-sah", full);
  if (!have_embree) {
    std::fprintf(stderr, "meniscus-bench raytrace: Embree %s: no peer\n", embree_version());
    return;
  }
  for (size_t p = 0; p < peers.size(); ++p) print(o, name, triangles, peers[p], theirs[p]);
}

}  // namespace
}  // namespace raytrace_bench

int run_raytrace(int argc, char** argv) {
  using namespace raytrace_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  for (const std::string& c : o.cases) run_case(o, c);
  return 0;
}

}  // namespace meniscus::bench
