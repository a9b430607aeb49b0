#pragma once
// What a test may set on the CPU execution layer beyond the CUDA API. Everything here has an
// environment variable too, so a test program runs unchanged under every schedule:
//   MENISCUS_CUDA_CPU_SCHEDULE      forward | reverse | random:<seed>   (default forward)
//   MENISCUS_CUDA_CPU_POISON        byte that fills fresh device memory (default by schedule)
//   MENISCUS_CUDA_CPU_MEMORY_LIMIT  bytes cudaMalloc may hand out in all (default 8 GiB)
#include <cstddef>
#include <cstdint>
#include <string>

namespace cuda_cpu {

enum class Order { kForward, kReverse, kRandom };

struct Schedule {
  Order order = Order::kForward;
  uint64_t seed = 0;    // kRandom only
  uint8_t poison = 0xFF;  // fresh device memory: NaN as float, -1 as int
  std::string name() const;
};

// The schedule kernels launched from now on run under (blocks and threads between barriers).
Schedule schedule();
void set_schedule(const Schedule& schedule);
// Parses "forward", "reverse" or "random:<seed>"; throws std::invalid_argument otherwise.
Schedule parse_schedule(const std::string& text);

// Total bytes of device memory cudaMalloc may hold at once; beyond it cudaMalloc fails with
// cudaErrorMemoryAllocation, as a full GPU does.
size_t memory_limit();
void set_memory_limit(size_t bytes);
size_t memory_in_use();

// How many times the host has blocked until device work was done (synchronous copies, the
// synchronize calls, cudaFree, destroying a busy stream or event): the waits a hot path must
// not make, counted whether or not the work was already done.
uint64_t host_waits();

}  // namespace cuda_cpu
