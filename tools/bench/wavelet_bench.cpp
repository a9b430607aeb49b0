// meniscus-bench wavelet: our lifting (CPU, and CUDA where a device answers) against the
// packaged CPU peers in the same run, one JSON line per case:
//  - 2-D: a three-level transform of a 1920 × 1080 16-bit image per wavelet, int32 and float
//    storage, beside OpenJPEG's 5/3 (int32) and 9/7 (float) DWT at the same thread count;
//  - GSL: Haar and Daubechies through gsl_wavelet2d_nstransform_forward on a 1024² image (GSL
//    needs a square power of two and always transforms every level; single-threaded), against
//    ours at the same size, levels and one thread;
//  - 3-D: a three-level transform of a 256³ volume per wavelet (no packaged 3-D peer exists:
//    OpenJPEG has dropped JP3D and GSL is 2-D).
// gb_per_s is the data's bytes per second of transform; the first line measures this machine's
// memory bandwidth (a parallel copy, read + write bytes) to set it against. Our CPU lines name
// the instruction set the lifting ran with ("isa"); beside OpenJPEG they also give our time on
// the x86-64 baseline it is packaged for (ms_baseline_isa, speedup_baseline_isa).
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#if MENISCUS_BENCH_HAS_CUDA  // cuda_runtime.h exists only in a CUDA build
#include "sim/common/cuda_support.cuh"
#endif
#include "sim/wavelet/wavelet_cpu.h"
#include "sim/wavelet/wavelet_cuda.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/wavelet_peers.h"

namespace meniscus::bench {
namespace wavelet_bench {
namespace {

using namespace sim::wavelet;
using Clock = std::chrono::steady_clock;

struct Options {
  int threads = int(tbb::info::default_concurrency());
  int repeat = 5;
  uint32_t width = 1920, height = 1080;
  uint32_t volume = 256;
  int levels = 3;
  std::vector<std::string> wavelets = {"haar", "5/3", "9/7", "dd97", "dd137"};
  std::vector<std::string> backends = {"cpu", "cuda"};
};

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string flag = flags.flag();
    if (flag == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (flag == "--repeat")
      o.repeat = flags.integer(1, 1000);
    else if (flag == "--levels")
      o.levels = flags.integer(1, 30);
    else if (flag == "--volume")
      o.volume = uint32_t(flags.integer(2, 1024, "voxels along each side"));
    else if (flag == "--size") {
      const ImageSize size = parse_image_size(flag, flags.value(), 2, 16384);
      o.width = size.width;
      o.height = size.height;
    } else if (flag == "--wavelets") {
      o.wavelets = split_list(flags.value());
      for (const auto& w : o.wavelets) parse_wavelet(w);
    } else if (flag == "--backends") {
      o.backends = split_list(flags.value());
      for (const auto& b : o.backends)
        if (b != "cpu" && b != "cuda") throw InputError("--backends: expected cpu and/or cuda, got '" + b + "'");
    } else
      throw InputError("unknown flag '" + flag + "'");
  }
  return o;
}

// A 16-bit image or volume: smooth structure plus a little noise, as a scan looks.
template <class T>
std::vector<T> scan_like(const Shape& shape) {
  std::vector<T> data(shape.count());
  uint32_t noise = 12345;
  size_t i = 0;
  for (uint32_t z = 0; z < shape.size[2]; ++z)
    for (uint32_t y = 0; y < shape.size[1]; ++y)
      for (uint32_t x = 0; x < shape.size[0]; ++x, ++i) {
        noise = noise * 1664525u + 1013904223u;
        const double v = 30000 + 20000 * std::sin(0.013 * x + 0.021 * y) * std::cos(0.017 * z) + (noise >> 22);
        data[i] = T(std::lround(v));
      }
  return data;
}

// Median ms of our CPU forward transform (the input restored before each run, untimed).
template <class T>
double our_cpu_ms(const std::vector<T>& input, const Shape& shape, Wavelet w, int levels, int repeat) {
  std::vector<T> data = input;
  forward_cpu(std::span<T>(data), shape, w, levels);  // warm-up: scratch, pages
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) {
    data = input;
    const auto start = Clock::now();
    forward_cpu(std::span<T>(data), shape, w, levels);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return upper_median(ms);
}

// The same with the lifting loops held to the build's x86-64 baseline (the instruction set a
// Debian package such as OpenJPEG's is built for): what the algorithm gains without AVX2.
template <class T>
double our_cpu_baseline_ms(const std::vector<T>& input, const Shape& shape, Wavelet w, int levels, int repeat) {
  const char* previous = std::getenv("MENISCUS_WAVELET_ISA");
  const std::string saved = previous ? previous : "";
  setenv("MENISCUS_WAVELET_ISA", "baseline", 1);
  const double ms = our_cpu_ms(input, shape, w, levels, repeat);
  if (previous)
    setenv("MENISCUS_WAVELET_ISA", saved.c_str(), 1);
  else
    unsetenv("MENISCUS_WAVELET_ISA");
  return ms;
}

template <class T>
double our_cuda_ms(const std::vector<T>& input, const Shape& shape, Wavelet w, int levels, int repeat) {
  std::vector<T> data = input;
  forward_cuda(data.data(), data.size(), shape, w, levels);
  std::vector<double> ms;
  for (int r = 0; r < repeat; ++r) {
    data = input;
    ms.push_back(forward_cuda(data.data(), data.size(), shape, w, levels));
  }
  return upper_median(ms);
}

double memory_bandwidth_gb_per_s() {
  const size_t n = size_t(1) << 27;  // 512 MB of floats each way
  std::vector<float> a(n, 1.0f), b(n, 0.0f);
  std::vector<double> ms;
  for (int r = 0; r < 4; ++r) {
    const auto start = Clock::now();
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1 << 20), [&](const tbb::blocked_range<size_t>& range) {
      std::memcpy(b.data() + range.begin(), a.data() + range.begin(), range.size() * sizeof(float));
    });
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return 2.0 * double(n) * sizeof(float) / (upper_median(ms) * 1e6);
}

profile::JsonWriter line(const char* which) {
  profile::JsonWriter json;
  json.begin_object().key("bench").value("wavelet").key("case").value(which);
  return json;
}

// gb_per_s counts the data once; every level reads and writes it per axis, so the memory
// traffic is several times that.
void print_ours(profile::JsonWriter& json, const char* backend, const char* storage, double ms, size_t bytes) {
  json.key("backend").value(backend).key("storage").value(storage).key("ms").value(ms);
  json.key("gb_per_s").value(double(bytes) / (ms * 1e6));
  if (std::string(backend) == "cpu") json.key("isa").value(cpu_lifting_isa());
}

template <class T>
void two_d(const Options& o, const char* storage, Wavelet w, const std::vector<T>& image) {
  const Shape shape = Shape::plane(o.width, o.height);
  const double ms = our_cpu_ms(image, shape, w, o.levels, o.repeat);
  auto json = line("2d");
  json.key("size").value(std::to_string(o.width) + "x" + std::to_string(o.height)).key("levels").value(o.levels);
  json.key("wavelet").value(wavelet_name(w)).key("threads").value(o.threads);
  print_ours(json, "cpu", storage, ms, image.size() * sizeof(T));
  // Like with like: OpenJPEG lifts its 5/3 in int32 and its 9/7 in float.
  const bool integer53 = std::is_same_v<T, int32_t> && w == Wavelet::LeGall53;
  const bool float97 = std::is_floating_point_v<T> && w == Wavelet::Cdf97;
  if (integer53 || float97) {
    const double baseline_ms = our_cpu_baseline_ms(image, shape, w, o.levels, o.repeat);
    json.key("ms_baseline_isa").value(baseline_ms);
    if (auto peer = openjpeg_dwt(o.width, o.height, o.levels, float97, o.threads, o.repeat)) {
      json.key("peer").value(std::string("openjpeg ") + openjpeg_version() + (float97 ? " 9/7" : " 5/3"));
      json.key("peer_threads").value(o.threads).key("peer_storage").value(float97 ? "float32" : "int32");
      json.key("peer_ms").value(peer->dwt_ms).key("peer_raw_ms").value(peer->raw_dwt_ms);
      json.key("peer_codeblock_us").value(peer->codeblock_us);
      json.key("peer_extra_codeblocks").value(int(peer->extra_codeblocks));
      json.key("peer_encode_ms").value(peer->encode_ms);
      json.key("peer_encode_without_dwt_ms").value(peer->encode_zero_levels_ms);
      json.key("speedup").value(peer->dwt_ms / ms).key("speedup_baseline_isa").value(peer->dwt_ms / baseline_ms);
    } else {
      json.key("peer").value("openjpeg absent");
    }
  }
  json.end_object();
  print_line(json);
}

void gsl_cases(const Options& o) {
  const uint32_t n = 1024;
  const Shape shape = Shape::plane(n, n);
  const int levels = max_levels(shape);  // GSL always goes down to 1 × 1
  const std::vector<float> image = scan_like<float>(shape);
  const std::vector<double> image_double(image.begin(), image.end());
  tbb::global_control one(tbb::global_control::max_allowed_parallelism, 1);
  struct Pair {
    Wavelet ours;
    const char* family;
    int member;
  };
  for (Pair p : {Pair{Wavelet::Haar, "haar", 2}, Pair{Wavelet::Cdf97, "daubechies", 8},
                 Pair{Wavelet::LeGall53, "daubechies", 4}}) {
    const double ms = our_cpu_ms(image, shape, p.ours, levels, o.repeat);
    auto json = line("2d_gsl");
    json.key("size").value("1024x1024").key("levels").value(levels).key("wavelet").value(wavelet_name(p.ours));
    json.key("threads").value(1);
    print_ours(json, "cpu", "float32", ms, image.size() * sizeof(float));
    if (auto peer = gsl_wavelet2d_ms(image_double, n, p.family, p.member, o.repeat)) {
      json.key("peer").value(std::string("gsl ") + gsl_version() + " " + p.family + " " + std::to_string(p.member) +
                             " (float64, nstransform)");
      json.key("peer_ms").value(*peer).key("speedup").value(*peer / ms);
    } else {
      json.key("peer").value("gsl absent");
    }
    json.end_object();
    print_line(json);
  }
}

template <class T>
void three_d(const Options& o, const char* storage, Wavelet w, const std::vector<T>& volume) {
  const Shape shape = Shape::volume(o.volume, o.volume, o.volume);
  const double ms = our_cpu_ms(volume, shape, w, o.levels, o.repeat);
  auto json = line("3d");
  json.key("size").value(std::to_string(o.volume) + "^3").key("levels").value(o.levels);
  json.key("wavelet").value(wavelet_name(w)).key("threads").value(o.threads);
  print_ours(json, "cpu", storage, ms, volume.size() * sizeof(T));
  json.key("peer").value("none packaged (OpenJPEG dropped JP3D; GSL is 2-D)");
  json.end_object();
  print_line(json);
}

void cuda_cases(const Options& o) {
  std::string why = "built without CUDA";
#if MENISCUS_BENCH_HAS_CUDA
  const bool answers = sim::cuda_device_answers(&why);
#else
  const bool answers = false;
#endif
  if (!answers) {
    auto json = line("cuda");
    json.key("skipped").value(why).end_object();
    print_line(json);
    return;
  }
  const Shape plane = Shape::plane(o.width, o.height);
  const Shape cube = Shape::volume(o.volume, o.volume, o.volume);
  const std::vector<float> image = scan_like<float>(plane), volume = scan_like<float>(cube);
  for (const auto& name : o.wavelets) {
    const Wavelet w = parse_wavelet(name);
    for (bool three : {false, true}) {
      const auto& data = three ? volume : image;
      const double ms = our_cuda_ms(data, three ? cube : plane, w, o.levels, o.repeat);
      auto json = line(three ? "3d" : "2d");
      json.key("size").value(three ? std::to_string(o.volume) + "^3"
                                   : std::to_string(o.width) + "x" + std::to_string(o.height));
      json.key("levels").value(o.levels).key("wavelet").value(wavelet_name(w));
      print_ours(json, "cuda", "float32", ms, data.size() * sizeof(float));
      json.end_object();
      print_line(json);
    }
  }
}

}  // namespace
}  // namespace wavelet_bench

int run_wavelet(int argc, char** argv) {
  using namespace wavelet_bench;  // this file's helpers
  const Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  {
    auto json = line("memory_bandwidth");
    json.key("threads").value(o.threads).key("gb_per_s").value(memory_bandwidth_gb_per_s()).end_object();
    print_line(json);
  }
  const bool cpu = std::find(o.backends.begin(), o.backends.end(), "cpu") != o.backends.end();
  if (cpu) {
    const Shape plane = Shape::plane(o.width, o.height);
    const std::vector<int32_t> image_int = scan_like<int32_t>(plane);
    const std::vector<float> image_float(image_int.begin(), image_int.end());
    for (const auto& name : o.wavelets) {
      two_d(o, "int32", parse_wavelet(name), image_int);
      two_d(o, "float32", parse_wavelet(name), image_float);
    }
    gsl_cases(o);
    const Shape cube = Shape::volume(o.volume, o.volume, o.volume);
    const std::vector<int32_t> volume_int = scan_like<int32_t>(cube);
    const std::vector<float> volume_float(volume_int.begin(), volume_int.end());
    for (const auto& name : o.wavelets) {
      three_d(o, "int32", parse_wavelet(name), volume_int);
      three_d(o, "float32", parse_wavelet(name), volume_float);
    }
  }
  if (std::find(o.backends.begin(), o.backends.end(), "cuda") != o.backends.end()) cuda_cases(o);
  return 0;
}

}  // namespace meniscus::bench
