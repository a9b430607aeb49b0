#pragma once
// Sim-stage timing with CUDA events: begin/end record an event pair on the stage's stream, and
// collect() waits for each pair's end event and reads the elapsed GPU time. Events are reused
// across frames, so a steady frame loop allocates nothing.
//
// Includable without CUDA headers: the stream is passed as an opaque pointer (a cudaStream_t;
// nullptr is the legacy default stream). Built from cuda_stage_timer.cu when MENISCUS_HAS_CUDA;
// otherwise the constructor throws DeviceError ("built without CUDA"). Also throws DeviceError
// when no CUDA device answers.
#include <memory>

#include "engine/profile/stage_timer.h"

namespace meniscus::profile {

class CudaStageTimer final : public StageTimer {
 public:
  explicit CudaStageTimer(void* stream);
  ~CudaStageTimer() override;
  CudaStageTimer(const CudaStageTimer&) = delete;
  CudaStageTimer& operator=(const CudaStageTimer&) = delete;

  void begin(std::string_view stage) override;
  void end(std::string_view stage) override;
  std::vector<StageSample> collect() override;
  std::string_view backend() const override { return "cuda"; }

  void* stream() const { return stream_; }

 private:
  struct State;  // event pairs, defined where CUDA is
  void* stream_ = nullptr;
  std::unique_ptr<State> state_;
};

}  // namespace meniscus::profile
