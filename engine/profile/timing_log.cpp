#include "engine/profile/timing_log.h"

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
  json.key("metadata").begin_object();
  json.key("scene").value(metadata_.scene);
  json.key("device").value(metadata_.device);
  json.key("driver").value(metadata_.driver);
  json.key("vulkan_api").value(metadata_.vulkan_api);
  json.key("git_revision").value(metadata_.git_revision);
  json.key("sim_backend").value(metadata_.sim_backend);
  json.key("timestamp_utc").value(metadata_.timestamp_utc);
  json.key("width").value(metadata_.width);
  json.key("height").value(metadata_.height);
  json.key("frames").value(metadata_.frames);
  json.key("warmup").value(metadata_.warmup);
  json.key("units").value("milliseconds");
  json.end_object();
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
    for (const PassSample& p : f.passes) out << f.frame << ",pass," << p.name << "," << p.gpu_ms << "\n";
    for (const StageSample& s : f.stages) out << f.frame << ",stage," << s.name << "," << s.ms << "\n";
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
  auto complete = [&](const std::string& name, int pid, int tid, double start_ms, double duration_ms, uint64_t frame) {
    json.begin_object();
    json.key("name").value(name);
    json.key("ph").value("X");
    json.key("pid").value(pid);
    json.key("tid").value(tid);
    json.key("ts").value(start_ms * 1000.0);
    json.key("dur").value(duration_ms * 1000.0);
    json.key("args").begin_object().key("frame").value(frame).end_object();
    json.end_object();
  };
  const double origin = frames_.empty() ? 0.0 : frames_.front().start_ms;
  for (const FrameTiming& f : frames_) {
    const double start = f.start_ms - origin;
    complete("frame " + std::to_string(f.frame), kCpuPid, kFrameTid, start, f.cpu_ms, f.frame);
    double stage_start = start;
    for (const StageSample& s : f.stages) {
      complete(s.name + " (" + s.backend + ")", kCpuPid, kSimTid, stage_start, s.ms, f.frame);
      stage_start += s.ms;
    }
    for (const PassSample& p : f.passes) complete(p.name, kGpuPid, kPassTid, start + p.begin_ms, p.gpu_ms, f.frame);
  }
  json.end_array();
  json.key("displayTimeUnit").value("ms");
  json.key("otherData").begin_object();
  json.key("scene").value(metadata_.scene);
  json.key("device").value(metadata_.device);
  json.key("driver").value(metadata_.driver);
  json.key("git_revision").value(metadata_.git_revision);
  json.key("resolution").value(std::to_string(metadata_.width) + "x" + std::to_string(metadata_.height));
  json.end_object();
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
