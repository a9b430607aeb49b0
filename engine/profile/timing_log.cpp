#include "engine/profile/timing_log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "engine/profile/stats.h"

namespace meniscus::profile {
namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void write_summary(JsonWriter& json, const Summary& s) {
  json.begin_object();
  json.key("count").value(uint64_t(s.count));
  json.key("min").value(s.min);
  json.key("median").value(s.median);
  json.key("p95").value(s.p95);
  json.key("p99").value(s.p99);
  json.key("max").value(s.max);
  json.key("mean").value(s.mean);
  json.end_object();
}

void write_metadata(JsonWriter& json, const CaptureMetadata& m) {
  json.begin_object();
  json.key("scene").value(m.scene);
  json.key("device").value(m.device);
  json.key("driver").value(m.driver);
  json.key("vulkan_api").value(m.vulkan_api);
  json.key("git_revision").value(m.git_revision);
  json.key("sim_backend").value(m.sim_backend);
  json.key("timestamp_utc").value(m.timestamp_utc);
  json.key("width").value(m.width);
  json.key("height").value(m.height);
  json.key("frames").value(m.frames);
  json.key("warmup").value(m.warmup);
  json.key("units").value("milliseconds");
  json.end_object();
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// Trace times are microseconds; nanoseconds (three decimals) is the finest any of our clocks
// resolves, and rounding there keeps float noise (53953.48199946314) out of the file.
double to_trace_us(double ms) { return std::round(ms * 1e6) / 1e3; }

// Names in order of first appearance, with all their samples.
struct Series {
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> samples;
  std::map<std::string, std::string> backend;
  void add(const std::string& name, double value) {
    if (!samples.count(name)) order.push_back(name);
    samples[name].push_back(value);
  }
};

}  // namespace

std::string TimingLog::to_json() const {
  Series passes, stages;
  std::vector<double> cpu, gpu;
  for (const FrameTiming& f : frames_) {
    cpu.push_back(f.cpu_ms);
    gpu.push_back(f.gpu_ms);
    for (const PassSample& p : f.passes) passes.add(p.name, p.gpu_ms);
    for (const StageSample& s : f.stages) {
      stages.add(s.name, s.ms);
      stages.backend[s.name] = s.backend;
    }
  }
  JsonWriter json;
  json.begin_object();
  json.key("metadata");
  write_metadata(json, metadata_);
  json.key("frame").begin_object();
  json.key("cpu_ms");
  write_summary(json, summarize(cpu));
  json.key("gpu_ms");
  write_summary(json, summarize(gpu));
  json.end_object();
  json.key("passes").begin_object();
  for (const std::string& name : passes.order) {
    json.key(name);
    write_summary(json, summarize(passes.samples[name]));
  }
  json.end_object();
  json.key("stages").begin_object();
  for (const std::string& name : stages.order) {
    json.key(name);
    write_summary(json, summarize(stages.samples[name]));
  }
  json.end_object();
  json.key("stage_backends").begin_object();
  for (const std::string& name : stages.order) json.key(name).value(stages.backend[name]);
  json.end_object();
  json.key("frames").begin_array();
  for (const FrameTiming& f : frames_) {
    json.begin_object();
    json.key("frame").value(f.frame);
    json.key("cpu_ms").value(f.cpu_ms);
    json.key("gpu_ms").value(f.gpu_ms);
    json.key("start_ms").value(f.start_ms);
    json.key("passes").begin_object();
    for (const PassSample& p : f.passes) json.key(p.name).value(p.gpu_ms);
    json.end_object();
    json.key("stages").begin_object();
    for (const StageSample& s : f.stages) json.key(s.name).value(s.ms);
    json.end_object();
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return json.str() + "\n";
}

std::string TimingLog::to_csv() const {
  std::ostringstream out;
  out << "frame,kind,name,ms\n";
  out.precision(9);
  for (const FrameTiming& f : frames_) {
    out << f.frame << ",frame,cpu," << f.cpu_ms << "\n";
    out << f.frame << ",frame,gpu," << f.gpu_ms << "\n";
    for (const PassSample& p : f.passes) out << f.frame << ",pass," << csv_field(p.name) << "," << p.gpu_ms << "\n";
    for (const StageSample& s : f.stages) out << f.frame << ",stage," << csv_field(s.name) << "," << s.ms << "\n";
  }
  return out.str();
}

std::string TimingLog::to_chrome_trace() const {
  // Trace Event Format: "X" complete events in microseconds. GPU timestamps live on their own
  // clock, so each frame's GPU track is placed at that frame's CPU start.
  constexpr int kCpuPid = 1, kGpuPid = 2;
  constexpr int kFrameTid = 1, kSimTid = 2, kPassTid = 1;
  JsonWriter json;
  json.begin_object();
  json.key("traceEvents").begin_array();
  auto name_event = [&](const char* kind, int pid, int tid, const std::string& name) {
    json.begin_object();
    json.key("name").value(kind);
    json.key("ph").value("M");
    json.key("pid").value(pid);
    json.key("tid").value(tid);
    json.key("args").begin_object().key("name").value(name).end_object();
    json.end_object();
  };
  name_event("process_name", kCpuPid, 0, "CPU");
  name_event("process_name", kGpuPid, 0, "GPU (" + metadata_.device + ")");
  name_event("thread_name", kCpuPid, kFrameTid, "frame");
  name_event("thread_name", kCpuPid, kSimTid, "simulation stages");
  name_event("thread_name", kGpuPid, kPassTid, "passes");
  auto complete = [&](const std::string& name, int pid, int tid, double start_ms, double duration_ms, uint64_t frame,
                      const PassSample* pass) {
    json.begin_object();
    json.key("name").value(name);
    json.key("ph").value("X");
    json.key("pid").value(pid);
    json.key("tid").value(tid);
    json.key("ts").value(to_trace_us(start_ms));
    json.key("dur").value(to_trace_us(duration_ms));
    json.key("args").begin_object().key("frame").value(frame);
    if (pass) {
      json.key("gpu_ms").value(pass->gpu_ms);
      json.key("begin_ms").value(pass->begin_ms);
      json.key("end_ms").value(pass->end_ms);
    }
    json.end_object();
    json.end_object();
  };
  const double origin = frames_.empty() ? 0.0 : frames_.front().start_ms;
  // Slices on one track must nest or follow each other. GPU pass intervals can overlap a little
  // (a pass's TOP_OF_PIPE begin may land before the previous pass's BOTTOM_OF_PIPE end), and a
  // frame placed at its CPU start can reach into the next one's, so on the GPU track each slice
  // starts no earlier than the previous one ended. The measured values stay in its args.
  double gpu_track_end = 0.0;
  for (const FrameTiming& f : frames_) {
    const double start = f.start_ms - origin;
    complete("frame " + std::to_string(f.frame), kCpuPid, kFrameTid, start, f.cpu_ms, f.frame, nullptr);
    double stage_start = start;  // stages run one after another at the start of the frame
    for (const StageSample& s : f.stages) {
      complete(s.name + " (" + s.backend + ")", kCpuPid, kSimTid, stage_start, s.ms, f.frame, nullptr);
      stage_start += s.ms;
    }
    for (const PassSample& p : f.passes) {
      const double begin = std::max(start + p.begin_ms, gpu_track_end);
      const double end = std::max(start + p.end_ms, begin);
      complete(p.name, kGpuPid, kPassTid, begin, end - begin, f.frame, &p);
      gpu_track_end = end;
    }
  }
  json.end_array();
  json.key("displayTimeUnit").value("ms");
  json.key("otherData");
  write_metadata(json, metadata_);
  json.end_object();
  return json.str() + "\n";
}

void TimingLog::write(const std::string& path) const {
  std::string text;
  if (ends_with(path, ".trace.json")) text = to_chrome_trace();
  else if (ends_with(path, ".json")) text = to_json();
  else if (ends_with(path, ".csv")) text = to_csv();
  else throw InputError(path + ": unknown timing format (use .json, .csv or .trace.json)");
  std::ofstream file(path);
  if (!file) throw InputError(path + ": cannot open for writing");
  file << text;
  if (!file) throw InputError(path + ": write failed");
}

}  // namespace meniscus::profile
