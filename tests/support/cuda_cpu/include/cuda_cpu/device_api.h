#pragma once
// What device code sees when the CPU execution layer compiles a .cu file with g++: the
// qualifiers, the thread coordinates, barriers and warp collectives (which suspend the calling
// thread's fiber until the block's scheduler completes them, see block_run.cpp), atomics on
// host memory, and the device math and bit intrinsics the kernels call.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <source_location>
#include <type_traits>

#include "cuda_cpu/vector_types.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ __attribute__((always_inline))
#define __launch_bounds__(...)
// One block runs at a time on a worker thread and all of its threads (fibers) run on that
// worker, so a thread-local static is exactly "one per block".
#define __shared__ static thread_local

namespace cuda_cpu {

// Where the running GPU thread is; set by the block scheduler on every switch to a fiber.
struct ThreadCoordinates {
  uint3 thread_idx{0, 0, 0};
  uint3 block_idx{0, 0, 0};
  dim3 block_dim{1, 1, 1};
  dim3 grid_dim{1, 1, 1};
};
inline thread_local ThreadCoordinates* current_thread = nullptr;
// The coordinates of the running GPU thread; a fatal error outside a kernel.
ThreadCoordinates& this_thread();

enum class WarpOp : uint8_t {
  kShfl, kShflUp, kShflDown, kShflXor,
  kBallot, kAny, kAll,
  kReduceOr, kReduceAnd, kReduceAdd, kReduceMin, kReduceMax,
  kSyncWarp,
};
const char* warp_op_name(WarpOp op);

// Suspends the calling thread until every lane named by `mask` has reached the same call
// (same operation and source location), then returns this lane's result. A lane named by the
// mask that exits, waits at a barrier or at another collective is a fatal defect.
uint64_t warp_collective(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const std::source_location& where);
// __syncthreads: suspends until every live thread of the block has arrived.
void block_barrier(const std::source_location& where);

template <class T>
uint64_t to_lane_bits(T value) {
  static_assert(sizeof(T) <= sizeof(uint64_t) && std::is_trivially_copyable_v<T>, "warp collectives move at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
T from_lane_bits(uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

}  // namespace cuda_cpu

#define threadIdx (::cuda_cpu::this_thread().thread_idx)
#define blockIdx (::cuda_cpu::this_thread().block_idx)
#define blockDim (::cuda_cpu::this_thread().block_dim)
#define gridDim (::cuda_cpu::this_thread().grid_dim)
constexpr int warpSize = 32;

inline void __syncthreads(const std::source_location& where = std::source_location::current()) {
  cuda_cpu::block_barrier(where);
}
inline void __syncwarp(unsigned mask = 0xFFFFFFFFu, const std::source_location& where = std::source_location::current()) {
  cuda_cpu::warp_collective(cuda_cpu::WarpOp::kSyncWarp, mask, 0, 0, warpSize, where);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize,
              const std::source_location& where = std::source_location::current()) {
  return cuda_cpu::from_lane_bits<T>(
      cuda_cpu::warp_collective(cuda_cpu::WarpOp::kShfl, mask, cuda_cpu::to_lane_bits(var), src_lane, width, where));
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                 const std::source_location& where = std::source_location::current()) {
  return cuda_cpu::from_lane_bits<T>(
      cuda_cpu::warp_collective(cuda_cpu::WarpOp::kShflUp, mask, cuda_cpu::to_lane_bits(var), int(delta), width, where));
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize,
                   const std::source_location& where = std::source_location::current()) {
  return cuda_cpu::from_lane_bits<T>(
      cuda_cpu::warp_collective(cuda_cpu::WarpOp::kShflDown, mask, cuda_cpu::to_lane_bits(var), int(delta), width, where));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize,
                  const std::source_location& where = std::source_location::current()) {
  return cuda_cpu::from_lane_bits<T>(
      cuda_cpu::warp_collective(cuda_cpu::WarpOp::kShflXor, mask, cuda_cpu::to_lane_bits(var), lane_mask, width, where));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, const std::source_location& where = std::source_location::current()) {
  return unsigned(cuda_cpu::warp_collective(cuda_cpu::WarpOp::kBallot, mask, predicate != 0, 0, warpSize, where));
}
inline int __any_sync(unsigned mask, int predicate, const std::source_location& where = std::source_location::current()) {
  return int(cuda_cpu::warp_collective(cuda_cpu::WarpOp::kAny, mask, predicate != 0, 0, warpSize, where));
}
inline int __all_sync(unsigned mask, int predicate, const std::source_location& where = std::source_location::current()) {
  return int(cuda_cpu::warp_collective(cuda_cpu::WarpOp::kAll, mask, predicate != 0, 0, warpSize, where));
}
#define MENISCUS_CUDA_CPU_REDUCE(name, op)                                                                       \
  inline unsigned name(unsigned mask, unsigned value, const std::source_location& where = std::source_location::current()) { \
    return unsigned(cuda_cpu::warp_collective(cuda_cpu::WarpOp::op, mask, value, 0, warpSize, where));        \
  }
MENISCUS_CUDA_CPU_REDUCE(__reduce_or_sync, kReduceOr)
MENISCUS_CUDA_CPU_REDUCE(__reduce_and_sync, kReduceAnd)
MENISCUS_CUDA_CPU_REDUCE(__reduce_add_sync, kReduceAdd)
MENISCUS_CUDA_CPU_REDUCE(__reduce_min_sync, kReduceMin)
MENISCUS_CUDA_CPU_REDUCE(__reduce_max_sync, kReduceMax)
#undef MENISCUS_CUDA_CPU_REDUCE

// Atomics: relaxed read-modify-writes at device scope, as CUDA's are.
template <class T>
T atomicAdd(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_add(value, std::memory_order_relaxed);
}
template <class T>
T atomicSub(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_sub(value, std::memory_order_relaxed);
}
template <class T>
T atomicOr(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_or(value, std::memory_order_relaxed);
}
template <class T>
T atomicAnd(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_and(value, std::memory_order_relaxed);
}
template <class T>
T atomicXor(T* address, T value) {
  return std::atomic_ref<T>(*address).fetch_xor(value, std::memory_order_relaxed);
}
template <class T>
T atomicExch(T* address, T value) {
  return std::atomic_ref<T>(*address).exchange(value, std::memory_order_relaxed);
}
template <class T>
T atomicCAS(T* address, T compare, T value) {
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value, std::memory_order_relaxed);
  return compare;  // the old value either way
}
template <class T>
T atomicMax(T* address, T value) {
  std::atomic_ref<T> target(*address);
  T old = target.load(std::memory_order_relaxed);
  while (old < value && !target.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
  return old;
}
template <class T>
T atomicMin(T* address, T value) {
  std::atomic_ref<T> target(*address);
  T old = target.load(std::memory_order_relaxed);
  while (value < old && !target.compare_exchange_weak(old, value, std::memory_order_relaxed)) {
  }
  return old;
}

// The read-only cache load is a plain load here.
template <class T>
T __ldg(const T* address) {
  return *address;
}

// CUDA's global min/max overloads (device math API).
inline int min(int a, int b) { return std::min(a, b); }
inline int max(int a, int b) { return std::max(a, b); }
inline unsigned min(unsigned a, unsigned b) { return std::min(a, b); }
inline unsigned max(unsigned a, unsigned b) { return std::max(a, b); }
inline long long min(long long a, long long b) { return std::min(a, b); }
inline long long max(long long a, long long b) { return std::max(a, b); }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return std::min(a, b); }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return std::max(a, b); }
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return std::countl_zero(unsigned(x)); }
inline int __clzll(long long x) { return std::countl_zero((unsigned long long)x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
