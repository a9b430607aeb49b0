// meniscus-bench mc: marching cubes throughput, ours against VTK's Flying Edges in the same run
// on the same samples and thread count (issue: "million MC cells per second and triangles for
// Cayley 64^3-512^3 and the CT head").
#include <tbb/global_control.h>
#include <tbb/info.h>


#include <algorithm>
#include <cstring>
#include <memory>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/data_files.h"
#include "engine/core/error.h"
#include "engine/core/log.h"
#include "engine/graph/executor.h"
#include "engine/profile/gpu_timer.h"
#include "engine/profile/json_writer.h"
#include "passes/surface/gpu_extraction.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/marching_cubes_cuda.h"
#include "sim/histopyramid/volume_io.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/peers.h"
#include "tools/bench/vtk_flying_edges.h"

namespace meniscus::bench {

namespace mc_bench {
namespace {

std::unique_ptr<FlyingEdgesRunner> flying_edges_for(const sim::Volume& volume, float iso, int threads) {
  return FlyingEdgesRunner::create({volume.values.data(),
                                    {volume.dims.x, volume.dims.y, volume.dims.z},
                                    {volume.spacing.x, volume.spacing.y, volume.spacing.z},
                                    {volume.origin.x, volume.origin.y, volume.origin.z},
                                    iso,
                                    threads});
}

struct Options {
  int threads = int(tbb::info::default_concurrency());
  std::vector<uint32_t> sizes{64, 128, 256};
  int repeat = 5;
  bool vulkan = true;
  bool cuda = true;
  bool check = false;  // exit 1 unless our shared-vertex and triangle counts equal Flying Edges'
  sim::McKernels kernels = sim::McKernels::kFastest;
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--repeat")
      o.repeat = flags.integer(1, 1000);
    else if (flag == "--no-vulkan") o.vulkan = false;
    else if (flag == "--no-cuda") o.cuda = false;
    else if (flag == "--check") o.check = true;
    else if (flag == "--kernels") {
      const std::string kernels = flags.value();
      if (kernels == "fastest") o.kernels = sim::McKernels::kFastest;
      else if (kernels == "avx2")
        o.kernels = sim::McKernels::kAvx2;
      else if (kernels == "baseline") o.kernels = sim::McKernels::kBaseline;
      else
        throw InputError("--kernels: expected fastest, avx2 or baseline, got '" + kernels + "'");
    }
    else if (flag == "--sizes") {
      o.sizes.clear();
      for (const std::string& item : split_list(flags.value()))
        o.sizes.push_back(uint32_t(parse_integer(flag, item, 2, 1024)));
    } else throw InputError("mc: unknown flag '" + flag + "'");
  }
  return o;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

void emit(const std::string& case_name, const sim::Volume& volume, float iso, const Options& o, const char* impl,
          const std::vector<double>& ms, uint64_t vertices, uint64_t triangles, const std::string& device,
          double reference_ms = 0, const char* vertex_kind = "shared",
          const std::vector<std::pair<std::string, double>>& phases = {}, const char* kernels = nullptr) {
  profile::JsonWriter json;
  const double m = median(ms);
  json.begin_object();
  json.key("bench").value("mc");
  json.key("case").value(case_name);
  json.key("dims").value(std::to_string(volume.dims.x) + "x" + std::to_string(volume.dims.y) + "x" + std::to_string(volume.dims.z));
  json.key("iso").value(double(iso));
  json.key("impl").value(impl);
  json.key("device").value(device);
  json.key("threads").value(uint64_t(o.threads));
  if (kernels) json.key("kernels").value(kernels);
  json.key("cells").value(volume.cell_count());
  json.key("ms_median").value(m);
  json.key("ms_min").value(*std::min_element(ms.begin(), ms.end()));
  json.key("mcells_per_s").value(double(volume.cell_count()) / m / 1e3);
  json.key("vertices").value(vertices);
  json.key("vertex_kind").value(vertex_kind);  // shared (indexed mesh) or soup (3 per triangle)
  json.key("triangles").value(triangles);
  json.key("repeat").value(uint64_t(ms.size()));
  if (reference_ms > 0) json.key("speedup_vs_vtk_flying_edges").value(reference_ms / m);
  for (const auto& [name, ms_phase] : phases) json.key(name).value(ms_phase);
  json.end_object();
  print_line(json);
}

}  // namespace
}  // namespace mc_bench

int run_mc(int argc, char** argv) {
  using namespace mc_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  log::set_quiet(true);
  std::unique_ptr<Context> context;
  if (o.vulkan) context = std::make_unique<Context>(ContextOptions{});

  struct Case {
    std::string name;
    sim::Volume volume;
    float iso;
  };
  std::vector<Case> cases;
  for (uint32_t n : o.sizes) cases.push_back({"cayley", sim::make_field("cayley", n), 0.0f});
  cases.push_back({"ct_head", sim::load_volume(find_data_file("vtk-data/headsq/quarter.nhdr").string()), 500.0f});

  // The CUDA figures need a lent GPU; elsewhere one line says why they are missing.
  bool cuda = o.cuda;
  if (cuda) {
    std::string why;
    cuda = sim::cuda_marching_cubes_available(&why);
    if (!cuda) {
      profile::JsonWriter json;
      json.begin_object();
      json.key("bench").value("mc");
      json.key("impl").value("meniscus-cuda-histopyramid");
      json.key("skipped").value(why);
      json.end_object();
      print_line(json);
    }
  }

  int failures = 0;
  for (const Case& c : cases) {
    // Flying Edges and ours alternate, run by run, each first in every other pair: both sides
    // see the same drift in the machine's speed and the same state of its caches.
    const std::unique_ptr<FlyingEdgesRunner> vtk = flying_edges_for(c.volume, c.iso, o.threads);
    std::vector<double> vtk_runs, ours, classify, scan, extract;
    sim::IndexedMesh mesh;
    sim::MarchingCubes marching_cubes(o.kernels);  // one object, like the one filter VTK re-runs
    for (int r = 0; r < o.repeat; ++r) {
      if (vtk && r % 2 == 0) vtk_runs.push_back(vtk->run());
      sim::McStats stats;
      mesh = marching_cubes.extract(c.volume, c.iso, &stats);
      ours.push_back(stats.classify_ms + stats.scan_ms + stats.extract_ms);
      classify.push_back(stats.classify_ms);
      scan.push_back(stats.scan_ms);
      extract.push_back(stats.extract_ms);
      if (vtk && r % 2 == 1) vtk_runs.push_back(vtk->run());
    }
    double vtk_ms = 0;
    if (vtk) {
      vtk_ms = median(vtk_runs);
      emit(c.name, c.volume, c.iso, o, "vtk-flying-edges", vtk_runs, vtk->vertices(), vtk->triangles(),
           std::string("cpu, VTK ") + vtk_flying_edges_version());
    }
    emit(c.name, c.volume, c.iso, o, "meniscus-cpu", ours, mesh.positions.size(), mesh.triangles.size(),
         "cpu", vtk_ms, "shared",
         {{"classify_ms_median", median(classify)}, {"scan_ms_median", median(scan)}, {"extract_ms_median", median(extract)}},
         sim::mc_kernels_name(o.kernels));
    // Vertices sit on crossed edges whatever the case table, so the counts must agree exactly;
    // triangles may differ only where tables split ambiguous faces differently (ours and VTK's
    // have agreed on every case measured so far, so any difference is reported).
    if (o.check && vtk && vtk->vertices() != mesh.positions.size()) {
      std::fprintf(stderr, "meniscus-bench: %s: %zu vertices, Flying Edges %llu\n", c.name.c_str(),
                   mesh.positions.size(), (unsigned long long)vtk->vertices());
      failures++;
    }
    if (o.check && vtk && vtk->triangles() != mesh.triangles.size())
      std::fprintf(stderr, "meniscus-bench: %s: %zu triangles, Flying Edges %llu (ambiguous cases split differently)\n",
                   c.name.c_str(), mesh.triangles.size(), (unsigned long long)vtk->triangles());

    if (cuda) {
      // Classification + build + extraction (positions, normals, edge ids) on the device, from
      // CUDA events; the samples are uploaded once, the first run warms up.
      sim::CudaMarchingCubes on_device(c.volume);
      std::vector<double> runs;
      uint64_t vertices = 0;
      for (int r = 0; r <= o.repeat; ++r) {
        const sim::CudaSoup soup = on_device.extract(c.iso, /*read_back=*/false);
        vertices = soup.vertices;
        if (r > 0) runs.push_back(soup.gpu_ms);
      }
      emit(c.name, c.volume, c.iso, o, "meniscus-cuda-histopyramid", runs, vertices, vertices / 3, on_device.device_name(),
           vtk_ms, "soup");
      if (o.check && vertices != mesh.triangles.size() * 3) {
        std::fprintf(stderr, "meniscus-bench: %s: CUDA emitted %llu vertices, CPU %zu\n", c.name.c_str(),
                     (unsigned long long)vertices, mesh.triangles.size() * 3);
        failures++;
      }
    }

    if (context) {
      try {
        // Build + extraction on the device, from GPU timestamps; the first run warms up.
        passes::GpuHistoPyramid pyramid(*context, c.volume, c.volume.origin, c.volume.spacing, "bench");
        std::vector<double> runs;
        uint64_t vertices = 0;
        for (int r = 0; r <= o.repeat; ++r) {
          const passes::GpuSoup soup = passes::extract_on_gpu(*context, pyramid, c.iso);
          vertices = soup.positions.size();
          if (r > 0) runs.push_back(soup.gpu_ms);
        }
        emit(c.name, c.volume, c.iso, o, "meniscus-vulkan-histopyramid", runs, vertices, vertices / 3,
             context->info().name, vtk_ms, "soup");
        if (o.check && vertices != mesh.triangles.size() * 3) {
          std::fprintf(stderr, "meniscus-bench: %s: Vulkan emitted %llu vertices, CPU %zu\n", c.name.c_str(),
                       (unsigned long long)vertices, mesh.triangles.size() * 3);
          failures++;
        }
      } catch (const InputError& too_large) {
        std::fprintf(stderr, "meniscus-bench: vulkan skipped for %s: %s\n", c.name.c_str(), too_large.what());
      }
    }
  }
  if (o.check) std::fprintf(stderr, "meniscus-bench mc --check: %d mismatches\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace meniscus::bench
