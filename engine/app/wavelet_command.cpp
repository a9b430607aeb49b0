#include "engine/app/wavelet_command.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <span>
#include <vector>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/wavelet/wavelet_cpu.h"
#include "sim/wavelet/wavelet_cuda.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

struct Times {
  double forward_ms = 0, inverse_ms = 0;                  // wall clock, including transfers for CUDA
  double forward_device_ms = -1, inverse_device_ms = -1;  // CUDA events around the kernels
};

// Forward, write, inverse on `data` in place (CPU or CUDA).
template <class T>
Times round_trip(std::vector<T>& data, const sim::wavelet::Shape& shape, const WaveletOptions& o) {
  using namespace sim::wavelet;
  const Wavelet wavelet = parse_wavelet(o.wavelet);
  Times t;
  auto start = Clock::now();
  if (o.sim == "cuda")
    t.forward_device_ms = forward_cuda(data.data(), data.size(), shape, wavelet, o.levels);
  else
    forward_cpu(std::span<T>(data), shape, wavelet, o.levels);
  t.forward_ms = ms_since(start);
  if (!o.output.empty()) {
    std::ofstream out(o.output, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size() * sizeof(T)));
    if (!out) throw InputError("-o: cannot write '" + o.output.string() + "'");
  }
  start = Clock::now();
  if (o.sim == "cuda")
    t.inverse_device_ms = inverse_cuda(data.data(), data.size(), shape, wavelet, o.levels);
  else
    inverse_cpu(std::span<T>(data), shape, wavelet, o.levels);
  t.inverse_ms = ms_since(start);
  return t;
}

// The volume as int32, or an InputError naming the first sample that is not an integer.
std::vector<int32_t> integer_samples(const sim::Volume& v) {
  std::vector<int32_t> out(v.values.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const float f = v.values[i];
    if (f != std::nearbyint(f) || std::abs(f) > 1e9f)
      throw InputError("--integer: " + v.source + ": sample " + std::to_string(i) + " is " + std::to_string(f) +
                       " (integer lifting needs integer samples within ±1e9)");
    out[i] = int32_t(f);
  }
  return out;
}

}  // namespace

int transform_volume(const WaveletOptions& o) {
  const sim::Volume volume = sim::load_volume(o.volume);
  const std::string& name = volume.source.empty() ? o.volume : volume.source;
  if (volume.values.empty()) throw InputError(name + ": the volume is empty");
  sim::wavelet::check_finite(volume.values.data(), volume.values.size(), name);
  const auto d = volume.dims;
  const sim::wavelet::Shape shape =
      d.z == 1 ? sim::wavelet::Shape::plane(d.x, d.y) : sim::wavelet::Shape::volume(d.x, d.y, d.z);
  try {
    sim::wavelet::check_transform(shape, o.levels, volume.values.size());
  } catch (const InputError& error) {
    throw InputError(name + ": " + error.what());
  }

  double max_error = 0, squared = 0;
  Times t;
  if (o.integer) {
    const std::vector<int32_t> original = integer_samples(volume);
    std::vector<int32_t> data = original;
    t = round_trip(data, shape, o);
    for (size_t i = 0; i < data.size(); ++i) {
      const double e = std::abs(double(data[i]) - double(original[i]));
      max_error = std::max(max_error, e);
      squared += e * e;
    }
  } else {
    std::vector<float> data = volume.values;
    t = round_trip(data, shape, o);
    for (size_t i = 0; i < data.size(); ++i) {
      const double e = std::abs(double(data[i]) - double(volume.values[i]));
      max_error = std::max(max_error, e);
      squared += e * e;
    }
  }
  const double rms = std::sqrt(squared / double(volume.values.size()));
  const double megabytes = double(volume.values.size()) * 4.0 / 1e6;
  std::printf(
      "{\"command\":\"wavelet\",\"volume\":\"%s\",\"dims\":[%u,%u,%u],\"dimensions\":%d,\"wavelet\":\"%s\","
      "\"levels\":%d,\"storage\":\"%s\",\"sim\":\"%s\",\"forward_ms\":%.3f,\"inverse_ms\":%.3f,",
      name.c_str(), d.x, d.y, d.z, shape.dimensions, o.wavelet.c_str(), o.levels, o.integer ? "int32" : "float32",
      o.sim.c_str(), t.forward_ms, t.inverse_ms);
  if (t.forward_device_ms >= 0)
    std::printf("\"forward_device_ms\":%.3f,\"inverse_device_ms\":%.3f,", t.forward_device_ms, t.inverse_device_ms);
  std::printf("\"forward_gb_per_s\":%.2f,\"max_abs_error\":%.9g,\"rms_error\":%.9g", 2.0 * megabytes / t.forward_ms,
              max_error, rms);
  if (!o.output.empty()) std::printf(",\"coefficients\":\"%s\"", o.output.string().c_str());
  std::printf("}\n");
  return 0;
}

}  // namespace meniscus
