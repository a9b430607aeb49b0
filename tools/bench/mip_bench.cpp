// meniscus-bench mip: frame time of our three MIPs (thesis ch. 2: the reference ray cast, the
// multiresolution MIP and the streaming MIP at a few budgets) beside VTK's volume mappers in
// MIP blend mode, same volume, same frame, same thread count, in one run; and the image error
// of each approximation against the full-resolution MIP as the thesis' Tables 2.1-2.2 give it
// (largest grey-level difference, relative L1, median of the non-zero differences).
//
// A frame of ours is the MIP pass plus mip.display into a W x H image, recorded, submitted and
// waited for (wall clock), with the passes' GPU timestamps beside it; VTK's is one Render()
// of an offscreen window of the same size, waited for. See mip_bench_volume.h for why the
// volume is resampled to the frame.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/data_files.h"
#include "engine/core/error.h"
#include "engine/core/image.h"
#include "engine/graph/executor.h"
#include "engine/profile/gpu_timer.h"
#include "engine/profile/json_writer.h"
#include "passes/mip/mip_display_pass.h"
#include "passes/mip/mip_readback.h"
#include "passes/mip/mip_renderer.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/mip/mip_image_error.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/mip_bench_volume.h"
#include "tools/bench/vtk_mip.h"

namespace meniscus::bench {
namespace mip_bench {
namespace {

struct Size {
  uint32_t width, height;
};

struct Options {
  std::vector<Size> sizes{{512, 512}, {1024, 1024}};
  std::string volume;  // empty: the CT head from the data directory
  int threads = 2;
  int repeat = 3;
  uint32_t levels = 3;
  uint32_t max_depth = 128;
  sim::mip::ViewAxis axis = sim::mip::ViewAxis::Y;
  std::vector<double> budgets{0.01, 0.05, 0.2};
  std::vector<std::string> vtk{"fixed_point", "gpu"};
  std::string device;
  sim::SimBackend stream_backend = sim::SimBackend::Cpu;  // what builds the coefficient stream
  bool check = false;  // exit 1 unless the exact MIPs are exact and the streaming error falls with the budget
};

// Sides up to 2048: the coefficient packing's limit.
Size parse_size(const std::string& text) {
  const ImageSize size = parse_image_size("--size", text, 16, 2048);
  return {size.width, size.height};
}

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--size")
      o.sizes = {parse_size(flags.value())};
    else if (flag == "--volume")
      o.volume = flags.value();
    else if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--repeat")
      o.repeat = flags.integer(1, 1000);
    else if (flag == "--device")
      o.device = flags.value();
    else if (flag == "--check")
      o.check = true;
    else if (flag == "--sim") {
      const std::string name = flags.value();
      if (name != "cpu" && name != "cuda") throw InputError("--sim: expected cpu or cuda, got '" + name + "'");
      o.stream_backend = name == "cuda" ? sim::SimBackend::Cuda : sim::SimBackend::Cpu;
    }
    else if (flag == "--levels") {
      o.levels = uint32_t(flags.integer(1, int(sim::mip::kMaxPyramidLevels)));
    } else if (flag == "--max-depth") {
      o.max_depth = uint32_t(flags.integer(1, 1024));
    } else if (flag == "--axis") {
      const std::string name = flags.value();
      const auto axis = sim::mip::view_axis_from_name(name);
      if (!axis) throw InputError("--axis: expected x, y or z, got '" + name + "'");
      o.axis = *axis;
    } else if (flag == "--budgets") {
      o.budgets.clear();
      for (const std::string& item : split_list(flags.value()))
        o.budgets.push_back(parse_number(flag, item, 0, 1, "a fraction"));
    } else if (flag == "--vtk") {
      o.vtk = split_list(flags.value());
      for (const std::string& m : o.vtk)
        if (m != "fixed_point" && m != "gpu" && m != "none")
          throw InputError("--vtk: expected fixed_point, gpu or none, got '" + m + "'");
    } else {
      throw InputError("mip: unknown flag '" + flag +
                       "' (--size WxH, --volume FILE|data:NAME, --threads N, --repeat R, --levels L, --max-depth D, "
                       "--axis x|y|z, --budgets F,G, --vtk fixed_point,gpu|none, --device NAME, --sim cpu|cuda, --check)");
    }
  }
  return o;
}

double elapsed_ms(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Our frames at one size: the MIP pass and the display into a W x H target, as the app draws.
class FrameClock {
 public:
  FrameClock(const Context& context, Size size, uint16_t highest)
      : context_(context),
        target_(context,
                ImageSpec{.format = VK_FORMAT_R8G8B8A8_UNORM,
                          .extent = {size.width, size.height},
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT},
                "bench.frame"),
        display_(context, VK_FORMAT_R8G8B8A8_UNORM),
        executor_(context, 1),
        timer_(context, 1),
        highest_(highest) {}

  struct Frame {
    double frame_ms = 0, mip_ms = 0, display_ms = 0;
  };

  Frame run(passes::MipRenderer& renderer, const passes::MipSettings& settings) {
    const auto start = std::chrono::steady_clock::now();
    graph::FrameGraph graph;
    const passes::MipImageBuffer image = renderer.add(graph, settings);
    const graph::ImageHandle output = graph.import_image(
        "bench.frame", graph::ExternalImage{.image = target_.handle(),
                                            .view = target_.view(),
                                            .desc = {.format = target_.spec().format, .extent = target_.spec().extent},
                                            .initial = graph::Access::None,
                                            .final = graph::Access::ColorAttachmentWrite});
    (void)display_.add(graph, image, output, passes::MipWindow{0.0f, float(std::max<uint16_t>(1, highest_))},
                       glm::vec2(1.0f), false);
    submit_and_wait(context_, [&](VkCommandBuffer cmd) {
      timer_.begin_frame(cmd, 0);
      executor_.execute(graph, cmd, &timer_);
    });
    Frame frame;
    frame.frame_ms = elapsed_ms(start);
    for (const profile::PassSample& pass : timer_.collect(0))
      (pass.name == "mip.display" ? frame.display_ms : frame.mip_ms) += pass.gpu_ms;
    return frame;
  }

 private:
  const Context& context_;
  Image target_;
  passes::MipDisplayPass display_;
  graph::GraphExecutor executor_;
  profile::GpuPassTimer timer_;
  uint16_t highest_;
};

struct Case {
  std::string name;
  passes::MipSettings settings;
};

void begin_line(profile::JsonWriter& json, const Context& context, const Options& o, Size size,
                const sim::mip::GreyVolume& volume) {
  json.begin_object();
  json.key("bench").value("mip");
  json.key("device").value(context.info().name);
  json.key("driver").value(context.info().driver);
  json.key("threads").value(o.threads);
  json.key("width").value(size.width);
  json.key("height").value(size.height);
  json.key("axis").value(o.axis == sim::mip::ViewAxis::X ? "x" : o.axis == sim::mip::ViewAxis::Y ? "y" : "z");
  json.key("volume_dims").begin_array();
  for (int k = 0; k < 3; ++k) json.value(volume.dims[k]);
  json.end_array();
  json.key("repeat").value(o.repeat);
}

// Returns what --check asks of our images: exact where the method is exact (the ray cast, the
// multiresolution MIP, streaming with every detail), and a streaming error that does not grow
// as the budget does.
bool run_size(const Context& context, const Options& o, const sim::mip::GreyVolume& source, const std::string& name,
              Size size) {
  bool ok = true;
  std::vector<std::pair<double, sim::mip::MipImageError>> streamed;
  const sim::mip::GreyVolume volume = resample_for_frame(source, o.axis, size.width, size.height, o.max_depth);
  const uint16_t highest = *std::max_element(volume.values.begin(), volume.values.end());
  auto start = std::chrono::steady_clock::now();
  passes::MipRenderer renderer(context, volume, o.levels, o.stream_backend);
  const double setup_ms = elapsed_ms(start);  // pyramid, sorted stream, uploads: once per volume
  const sim::mip::MipImage exact = sim::mip::axis_mip(volume, o.axis);
  const size_t details = renderer.stream().detail_count();

  std::vector<Case> cases;
  passes::MipSettings settings;
  settings.axis = o.axis;
  settings.levels = o.levels;
  settings.method = passes::MipMethod::RayCast;
  cases.push_back({"ray_cast", settings});
  settings.method = passes::MipMethod::Multiresolution;
  cases.push_back({"multiresolution", settings});
  settings.method = passes::MipMethod::Streaming;
  for (double budget : o.budgets) {
    settings.budget = budget;
    cases.push_back({"streaming", settings});
  }
  FrameClock clock(context, size, highest);
  for (const Case& c : cases) {
    clock.run(renderer, c.settings);  // warm-up: transients, pipelines' first use
    std::vector<double> frame, mip, display;
    for (int r = 0; r < o.repeat; ++r) {
      const FrameClock::Frame f = clock.run(renderer, c.settings);
      frame.push_back(f.frame_ms);
      mip.push_back(f.mip_ms);
      display.push_back(f.display_ms);
    }
    const sim::mip::MipImageError error =
        sim::mip::mip_image_error(passes::render_mip_image(context, renderer, c.settings), exact);
    const bool streaming = c.settings.method == passes::MipMethod::Streaming;
    if (streaming) streamed.emplace_back(c.settings.budget, error);
    if ((!streaming || c.settings.budget == 1.0) && error.max != 0) {
      std::fprintf(stderr, "meniscus-bench mip: %s at %ux%u is not exact (max error %u)\n", c.name.c_str(), size.width,
                   size.height, error.max);
      ok = false;
    }
    profile::JsonWriter json;
    begin_line(json, context, o, size, volume);
    json.key("volume").value(name);
    json.key("implementation").value("meniscus");
    json.key("method").value(c.name);
    if (c.settings.method != passes::MipMethod::RayCast) {
      json.key("levels").value(o.levels);
      json.key("setup_ms").value(setup_ms);
      json.key("stream_sim").value(sim::backend_name(o.stream_backend));
      json.key("stream_build_ms").value(renderer.stream_stage().build_ms());
    }
    if (c.settings.method == passes::MipMethod::Streaming) {
      json.key("budget").value(c.settings.budget);
      json.key("coefficients").value(uint64_t(sim::mip::detail_budget(renderer.stream(), c.settings.budget)));
      json.key("coefficients_total").value(uint64_t(details));
      json.key("base_coefficients").value(uint64_t(renderer.stream().base_count));
    }
    json.key("frame_ms").value(upper_median(frame));
    json.key("mip_gpu_ms").value(upper_median(mip));
    json.key("display_gpu_ms").value(upper_median(display));
    json.key("error_max").value(error.max);
    json.key("error_relative_l1").value(error.relative_l1);
    json.key("error_median").value(error.median);
    json.end_object();
    print_line(json);
  }

  for (const std::string& mapper : o.vtk) {
    if (mapper == "none") continue;
    VtkMipInput in{};
    in.values = volume.values.data();
    for (int k = 0; k < 3; ++k) in.dims[k] = volume.dims[k];
    in.view_axis = int(o.axis);
    in.width = int(size.width);
    in.height = int(size.height);
    in.threads = o.threads;
    in.repeat = o.repeat;
    in.gpu = mapper == "gpu";
    VtkMipRun run;
    const bool ran = run_vtk_mip(in, run);
    profile::JsonWriter json;
    begin_line(json, context, o, size, volume);
    json.key("volume").value(name);
    json.key("implementation").value(std::string("vtk ") + vtk_mip_version());
    json.key("method").value(in.gpu ? "vtk_gpu_ray_cast" : "vtk_fixed_point_ray_cast");
    if (ran) {
      json.key("mapper").value(run.mapper);
      json.key("gl_renderer").value(run.renderer);
      json.key("frame_ms").value(upper_median(run.ms));
      // Did the peer draw the same MIP? Its 8-bit grey against our exact image on the same ramp.
      // (Voxel-centre conventions differ between mappers: neighbouring voxels across an edge.)
      uint32_t worst = 0;
      size_t off = 0;
      double sum = 0.0;
      for (size_t i = 0; i < run.grey.size(); ++i) {
        const long expected = std::lround(255.0 * exact.values[i] / std::max<uint16_t>(1, highest));
        const uint32_t d = uint32_t(std::labs(expected - long(run.grey[i])));
        worst = std::max(worst, d);
        off += d > 2;
        sum += d;
      }
      json.key("vs_exact_8bit_max").value(worst);
      json.key("vs_exact_8bit_mean").value(sum / double(run.grey.size()));
      json.key("vs_exact_8bit_pixels_off_by_more_than_2").value(double(off) / double(run.grey.size()));
    } else {
      json.key("skipped").value(run.error);
    }
    json.end_object();
    print_line(json);
  }
  std::sort(streamed.begin(), streamed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 1; i < streamed.size(); ++i)
    if (streamed[i].second.relative_l1 > streamed[i - 1].second.relative_l1 ||
        streamed[i].second.max > streamed[i - 1].second.max) {
      std::fprintf(stderr, "meniscus-bench mip: the streaming error grows from budget %g to %g\n",
                   streamed[i - 1].first, streamed[i].first);
      ok = false;
    }
  return ok;
}

}  // namespace
}  // namespace mip_bench

int run_mip(int argc, char** argv) {
  using namespace mip_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto limit = benchmark_environment(o.threads);
  // lavapipe's (and llvmpipe's, for VTK's GPU mapper) worker threads: the same count as TBB's
  // and VTK's, unless the caller chose.
  setenv("LP_NUM_THREADS", std::to_string(o.threads).c_str(), 0);
  const std::string path = o.volume.empty()                 ? find_data_file("vtk-data/headsq/quarter.nhdr").string()
                           : o.volume.starts_with("data:") ? find_data_file(o.volume.substr(5)).string()
                                                           : o.volume;
  const sim::mip::GreyVolume source = sim::mip::to_grey_levels(sim::load_volume(path));
  Context context(ContextOptions{.preferred_device = o.device});
  const std::string name = std::filesystem::path(path).filename().string() + " " + std::to_string(source.dims.x) + "x" +
                           std::to_string(source.dims.y) + "x" + std::to_string(source.dims.z);
  bool ok = true;
  for (const Size size : o.sizes) ok = run_size(context, o, source, name, size) && ok;
  return o.check && !ok ? 1 : 0;
}

}  // namespace meniscus::bench
