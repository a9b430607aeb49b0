#pragma once
// One thread block at a time on a worker thread: its GPU threads as fibers, run in the
// schedule's order until each exits, waits at __syncthreads or waits at a warp collective;
// a collective completes when every lane its mask names has reached it, the barrier when every
// live thread has (grid_run.cpp runs the blocks of a grid on TBB).
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <vector>

#include "cuda_cpu/control.h"
#include "cuda_cpu/device_api.h"
#include "fiber.h"

namespace cuda_cpu {

struct GridLaunch {
  std::string name;  // the kernel, for reports
  dim3 grid, block;
  const std::function<void()>* thread = nullptr;  // one GPU thread's work
  Schedule schedule;
};

class BlockRun {
 public:
  void run(const GridLaunch& grid, uint3 block_idx, uint64_t block_linear);

  // From a GPU thread of the running block (device_api.h's functions land here).
  uint64_t collective(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const std::source_location& where);
  void barrier(const std::source_location& where);

 private:
  enum class State : uint8_t { kNotStarted, kReady, kRunning, kAtBarrier, kAtCollective, kExited };
  struct Call {  // a warp collective a thread waits at
    WarpOp op;
    unsigned mask;
    uint64_t value;
    int arg;
    int width;
    std::source_location where;
    uint64_t result;
  };
  struct GpuThread {
    ThreadCoordinates coordinates;
    State state = State::kNotStarted;
    Fiber* fiber = nullptr;
    Call call{};
    std::source_location barrier_at;
  };

  void resume(uint32_t t);
  bool complete_collectives();
  bool complete_group(uint32_t warp_begin, uint32_t warp_end, uint32_t lane);
  [[noreturn]] void report_stuck_collective();
  std::string describe_lane(uint32_t t, const Call& expected) const;
  Fiber* take_fiber();

  const GridLaunch* grid_ = nullptr;
  std::vector<GpuThread> threads_;
  std::vector<std::function<void()>> tasks_;
  std::vector<uint32_t> order_;
  std::vector<std::unique_ptr<Fiber>> fibers_;
  std::vector<Fiber*> idle_;
  uint32_t running_ = 0;
  uint32_t live_ = 0;
};

// A permutation of 0..n-1: identity, reversed, or shuffled from (seed, salt).
void schedule_order(std::vector<uint32_t>& order, uint32_t n, const Schedule& schedule, uint64_t salt);

}  // namespace cuda_cpu
