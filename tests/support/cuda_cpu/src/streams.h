#pragma once
// Streams as CUDA orders them, on one device thread that runs all queued work in the order it
// was queued (a legal order for any mix of streams: each stream's own order is kept, and the
// legacy stream's ordering with blocking streams follows). The device is lazy: it starts on
// queued work only when the host waits for some of it, or when the host has queued nothing for
// a while (it may be waiting on Vulkan for a signal this work gives). That is the slowest
// legal device, so a read-back the host forgot to wait for sees stale memory instead of
// passing by luck. Under the reverse and random schedules non-blocking streams overtake the
// others, which CUDA allows and which exposes work ordered only by luck against them.
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
// Blocks the host until the work at `at` (and everything queued before it) has run. host_wait
// false: a wait this layer needs where CUDA's API does not wait (not counted in host_waits()).
void run_until(const Position& at, bool host_wait = true);
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
