#pragma once
// Frame timings of one run and the files they are written to. The file's suffix picks the
// format:
//   .json        {"metadata", "frame": {cpu_ms, gpu_ms summaries}, "passes": {name: summary},
//                 "stages": {name: summary}, "stage_backends", "frames": [per-frame values]};
//                summaries are {count, min, median, p95, p99, max, mean} (stats.h), null when
//                there are no samples
//   .csv         frame,kind,name,ms: per frame a cpu and a gpu row, a row per pass, per stage
//   .trace.json  Chrome trace events ("X", microseconds): CPU frame, sim stage and GPU pass
//                tracks, metadata in otherData; loads in chrome://tracing and Perfetto
// Every time in these structs is in milliseconds.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace meniscus::profile {

struct PassSample {
  std::string name;
  double gpu_ms = 0;
  double begin_ms = 0;  // relative to the frame-start GPU timestamp (GpuPassTimer::begin_frame)
  double end_ms = 0;
};

struct StageSample {
  std::string name;
  std::string backend;  // "cpu" | "cuda"
  double ms = 0;
};

struct FrameTiming {
  uint64_t frame = 0;
  double cpu_ms = 0;    // CPU time spent producing the frame (simulation, recording, submit)
  double gpu_ms = 0;    // first pass begin to last pass end on the GPU
  double start_ms = 0;  // CPU clock at the frame's start
  std::vector<PassSample> passes;
  std::vector<StageSample> stages;
};

struct CaptureMetadata {
  std::string scene, device, driver, vulkan_api, git_revision, sim_backend, timestamp_utc;
  uint32_t width = 0, height = 0, frames = 0, warmup = 0;
};

class TimingLog {
 public:
  void add(FrameTiming frame) { frames_.push_back(std::move(frame)); }
  void set_metadata(CaptureMetadata metadata) { metadata_ = std::move(metadata); }
  const std::vector<FrameTiming>& frames() const { return frames_; }

  // Throws InputError naming the path for an unknown suffix or an unwritable file.
  void write(const std::string& path) const;

  std::string to_json() const;
  std::string to_csv() const;
  std::string to_chrome_trace() const;

 private:
  std::vector<FrameTiming> frames_;
  CaptureMetadata metadata_;
};

}  // namespace meniscus::profile
