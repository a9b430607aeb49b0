#pragma once
// The CUDA SPH backend's state that lives on the device and never round-trips through the host
// while stepping: the live particle count, the solver's progress, and the frame record the host
// reads one frame late (see sph_frame_plan.h). Shared by the kernels and the host code.
#include <cstdint>
#include <cstring>

#include "sim/sph/sph_kernel.h"

namespace meniscus::sim::sph::cuda {

constexpr int kBlock = 256;

inline unsigned blocks(uint32_t n) { return (n + kBlock - 1) / kBlock; }

__device__ inline uint32_t thread_index() { return blockIdx.x * blockDim.x + threadIdx.x; }

constexpr uint32_t kNoParticle = 0xFFFFFFFFu;
constexpr unsigned long long kNoTime = ~0ull;

// A time as bits the device can compare and swap atomically (nvcc compiles C++17: no bit_cast).
inline unsigned long long time_bits(double time) {
  unsigned long long bits;
  std::memcpy(&bits, &time, sizeof(bits));
  return bits;
}
inline double time_from_bits(unsigned long long bits) {
  double time;
  std::memcpy(&time, &bits, sizeof(time));
  return time;
}

// Slots per particle in each flat neighbour list (fluid, boundary), allocated for the capacity
// so that nothing grows while stepping. A fluid at rest density has about 33 fluid neighbours
// in the bulk and fewer at its surface, and a particle sees at most one half-space of each
// two-layer boundary sampling (about 17 samples); a mean of 64 means the fluid is compressed to
// about twice its density, which only a failed solve produces. The lists are clamped to the
// slots and the overflow reported as a failure.
constexpr uint32_t kListSlots = 64;

// How many particles a kernel works on: the live count in device memory, which only the device
// changes (emitters, sinks), capped by the bound the host sized the launch for.
struct Live {
  const uint32_t* count;
  uint32_t bound;
  __device__ uint32_t get() const { return min(*count, bound); }
};

enum class Solve { Divergence, Density };

// When a solve stops, as SphCpu::solve decides.
struct SolveRule {
  Solve solve;
  int min_iterations, max_iterations;
  float tolerance;
};

// One DFSPH solve in progress: set by the kernel that finishes each iteration, read by the next
// iteration's kernels, which return at once when `done` (converged, or out of iterations).
struct SolveState {
  int32_t iterations;
  uint32_t done;
};

// What the host learns about a frame, copied to page-locked memory at the frame's end.
struct FrameRecord {
  uint32_t count;       // live particles
  float max_speed;      // at the frame's end
  int32_t density_iterations, divergence_iterations;            // of the last substep
  int32_t most_density_iterations, most_divergence_iterations;  // in the frame; -1: none ran
  float density_error;                                          // left by the last density solve
  // Failures, kept from the first until a reset so a late read still sees them.
  uint32_t most_neighbours;             // above kMaxNeighbours only: the fluid collapsed
  uint32_t overflow;                    // a neighbour list outgrew its kListSlots
  uint32_t bad_id;                      // lowest id that became non-finite in the first such substep
  unsigned long long bad_time_bits;     // that substep's start time (a double's bits), or kNoTime
  // Since the reset.
  unsigned long long wall_contacts, emitted, removed, dropped, blocked, unconverged;
};

struct DeviceState {
  uint32_t live;
  uint32_t boundary_count;
  uint32_t removed_now;  // by this substep's sinks, until they have compacted
  SolveState solve;
  FrameRecord record;
};

}  // namespace meniscus::sim::sph::cuda
