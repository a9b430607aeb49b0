#pragma once
// Streams as CUDA orders them, run lazily: work queued on a stream runs only when the host
// synchronises with it (or with an event on it, or with a later operation that must follow
// it). That is one legal CUDA timing, the slowest device, so a read-back the host forgot to
// wait for sees stale memory here instead of passing by luck. The legacy default stream (null)
// follows all earlier work of blocking streams and they follow it; cudaStreamNonBlocking
// streams are ordered only by their own queue.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "cuda_cpu/runtime_api.h"

namespace cuda_cpu {

struct Position {
  CUstream_st* stream = nullptr;
  uint64_t sequence = 0;
};

CUstream_st* create_stream(bool blocking);
void destroy_stream(CUstream_st* stream);  // after its work has run
// Queues `work` on `stream` (null: the legacy stream); returns its place.
Position enqueue(cudaStream_t stream, std::string what, std::function<void()> work);
// Runs the queue of `at.stream` up to and including `at.sequence` (and what that must follow).
void run_until(const Position& at);
void run_stream(cudaStream_t stream);
void run_all();
bool stream_idle(cudaStream_t stream);
bool known_stream(cudaStream_t stream);

}  // namespace cuda_cpu

struct CUevent_st {
  cuda_cpu::Position recorded;
  bool done = false;
  std::chrono::steady_clock::time_point when;
};
