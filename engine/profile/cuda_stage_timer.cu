#include "engine/profile/cuda_stage_timer.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "engine/core/error.h"

#define STAGE_CUDA_CHECK(call)                                                                     \
  do {                                                                                             \
    const cudaError_t stage_cuda_error_ = (call);                                                  \
    if (stage_cuda_error_ != cudaSuccess)                                                          \
      throw ::meniscus::DeviceError(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " + \
                                    #call + " failed: " + cudaGetErrorString(stage_cuda_error_));  \
  } while (0)

namespace meniscus::profile {

struct CudaStageTimer::State {
  struct Entry {
    std::string name;
    cudaEvent_t begin = nullptr;
    cudaEvent_t end = nullptr;
    bool open = true;
  };
  std::vector<Entry> entries;
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> spare;  // recycled by collect()

  ~State() {
    for (auto& e : entries) release(e.begin, e.end);
    for (auto& [b, e] : spare) release(b, e);
  }
  static void release(cudaEvent_t b, cudaEvent_t e) {
    if (b) cudaEventDestroy(b);
    if (e) cudaEventDestroy(e);
  }
};

CudaStageTimer::CudaStageTimer(void* stream) : stream_(stream), state_(std::make_unique<State>()) {
  // Fails here, with the runtime's reason ("no CUDA-capable device", "driver version is
  // insufficient"), rather than at the first begin().
  int device = -1;
  STAGE_CUDA_CHECK(cudaGetDevice(&device));
}

CudaStageTimer::~CudaStageTimer() = default;

void CudaStageTimer::begin(std::string_view stage) {
  auto& entries = state_->entries;
  if (std::any_of(entries.begin(), entries.end(), [&](const State::Entry& e) { return e.open && e.name == stage; }))
    throw std::logic_error("stage timer: '" + std::string(stage) + "' begun twice without end");
  State::Entry entry;
  entry.name = std::string(stage);
  if (!state_->spare.empty()) {
    std::tie(entry.begin, entry.end) = state_->spare.back();
    state_->spare.pop_back();
  } else {
    STAGE_CUDA_CHECK(cudaEventCreate(&entry.begin));
    const cudaError_t second = cudaEventCreate(&entry.end);
    if (second != cudaSuccess) cudaEventDestroy(entry.begin);
    STAGE_CUDA_CHECK(second);
  }
  // Owned by the list before the record can throw, so the events are not leaked.
  entries.push_back(std::move(entry));
  STAGE_CUDA_CHECK(cudaEventRecord(entries.back().begin, static_cast<cudaStream_t>(stream_)));
}

void CudaStageTimer::end(std::string_view stage) {
  auto& entries = state_->entries;
  const auto it =
      std::find_if(entries.begin(), entries.end(), [&](const State::Entry& e) { return e.open && e.name == stage; });
  if (it == entries.end()) throw std::logic_error("stage timer: end of '" + std::string(stage) + "' without begin");
  STAGE_CUDA_CHECK(cudaEventRecord(it->end, static_cast<cudaStream_t>(stream_)));
  it->open = false;
}

std::vector<StageSample> CudaStageTimer::collect() {
  // Entries are recycled one by one and erased at the end, so an error part-way leaves every
  // event owned exactly once.
  auto& entries = state_->entries;
  std::vector<StageSample> samples;
  for (State::Entry& e : entries) {
    if (e.open || !e.begin) continue;
    STAGE_CUDA_CHECK(cudaEventSynchronize(e.end));
    float ms = 0.0f;
    STAGE_CUDA_CHECK(cudaEventElapsedTime(&ms, e.begin, e.end));
    samples.push_back({e.name, std::string(backend()), double(ms)});
    state_->spare.emplace_back(e.begin, e.end);
    e.begin = e.end = nullptr;
  }
  entries.erase(std::remove_if(entries.begin(), entries.end(), [](const State::Entry& e) { return !e.open && !e.begin; }),
                entries.end());
  return samples;
}

}  // namespace meniscus::profile
