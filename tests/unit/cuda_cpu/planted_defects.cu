// The CPU execution layer's own tests: one small kernel per defect it must catch, run by name
// (`meniscus-cuda-cpu-defects <case>`). Fatal defects end the program with the layer's message,
// which ctest matches; the others print "caught: ..." when the layer exposes them, and every
// case first shows that the defect-free version of its kernel passes, so nothing is caught by
// accident.
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cuda_cpu/control.h"
#include "sim/common/cuda_launch.cuh"

namespace {

using meniscus::sim::launch;

constexpr int kThreads = 256;

int failures = 0;
void expect(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  failures += ok ? 0 : 1;
}

#define CHECK_CUDA(call)                                                                          \
  do {                                                                                            \
    const cudaError_t status_ = (call);                                                           \
    if (status_ != cudaSuccess) {                                                                 \
      std::printf("FAIL: %s: %s\n", #call, cudaGetErrorString(status_));                          \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

// Each thread writes its slot, then reads its right neighbour's.
template <bool kBarrier>
__global__ void rotate(int* out) {
  __shared__ int slots[kThreads];
  const int t = int(threadIdx.x);
  slots[t] = t + 1;
  if (kBarrier) __syncthreads();
  out[t] = slots[(t + 1) % kThreads];
}

// Warp sums by shuffles; with kDiverge the upper half-warp leaves first.
template <bool kDiverge>
__global__ void warp_sum(const int* in, int* out) {
  const int t = int(threadIdx.x);
  if (kDiverge && (t & 31) >= 16) return;
  int v = in[t];
  for (int step = 16; step > 0; step >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, step);
  out[t] = v;
}

__global__ void fill(int* out, int count, int value) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= count) out[i] = value;  // planted: <= writes one element past the end
}

__global__ void copy(const float* in, float* out, int count) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) out[i] = in[i];
}

template <class T>
std::vector<T> download(const T* device, size_t n) {
  std::vector<T> host(n);
  CHECK_CUDA(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

cuda_cpu::Schedule schedule_named(const char* name) { return cuda_cpu::parse_schedule(name); }

template <auto Kernel>
std::vector<int> rotate_under(const char* schedule) {
  cuda_cpu::set_schedule(schedule_named(schedule));
  int* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, kThreads * sizeof(int)));
  launch<Kernel>({1, kThreads}, out);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int> host = download(out, kThreads);
  CHECK_CUDA(cudaFree(out));
  return host;
}

void missing_syncthreads() {
  expect(rotate_under<rotate<true>>("forward") == rotate_under<rotate<true>>("reverse"),
         "with the barrier, forward and reverse schedules agree");
  const std::vector<int> forward = rotate_under<rotate<false>>("forward"), reverse = rotate_under<rotate<false>>("reverse");
  size_t differ = 0;
  for (int t = 0; t < kThreads; ++t) differ += forward[t] != reverse[t];
  if (differ) std::printf("caught: missing __syncthreads: %zu of %d results differ between forward and reverse schedules\n", differ, kThreads);
}

void divergent_shuffle() {
  int *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, kThreads * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, kThreads * sizeof(int)));
  std::vector<int> ones(kThreads, 1);
  CHECK_CUDA(cudaMemcpy(in, ones.data(), kThreads * sizeof(int), cudaMemcpyHostToDevice));
  launch<warp_sum<false>>({1, kThreads}, in, out);
  const std::vector<int> sums = download(out, kThreads);
  expect(sums == std::vector<int>(kThreads, 32), "a converged warp sums to 32 in every lane");
  launch<warp_sum<true>>({1, kThreads}, in, out);
  CHECK_CUDA(cudaDeviceSynchronize());  // the layer ends the program before this returns
  std::printf("FAIL: a divergent __shfl_xor_sync ran to the end\n");
}

void out_of_bounds_write() {
  constexpr int kCount = 1000;
  int* out = nullptr;
  CHECK_CUDA(cudaMalloc(&out, kCount * sizeof(int)));
  launch<fill>({(kCount + kThreads) / kThreads, kThreads}, out, kCount - 1, 7);  // in bounds
               CHECK_CUDA(cudaDeviceSynchronize());
  expect(download(out, kCount) == std::vector<int>(kCount, 7), "a write inside the allocation is fine");
  launch<fill>({(kCount + kThreads) / kThreads, kThreads}, out, kCount, 7);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("FAIL: a write past the end went unnoticed\n");
}

std::vector<float> copy_fresh_memory(uint8_t poison, bool initialise) {
  cuda_cpu::Schedule s = schedule_named("forward");
  s.poison = poison;
  cuda_cpu::set_schedule(s);
  constexpr int kCount = 512;
  float *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, kCount * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, kCount * sizeof(float)));
  if (initialise) CHECK_CUDA(cudaMemset(in, 0, kCount * sizeof(float)));
  launch<copy>({(kCount + kThreads - 1) / kThreads, kThreads}, in, out, kCount);
  std::vector<float> host = download(out, kCount);
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  return host;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void uninitialised_read() {
  expect(same_bits(copy_fresh_memory(0xFF, true), copy_fresh_memory(0x7F, true)),
         "initialised memory reads the same under both poison bytes");
  const std::vector<float> nan_poison = copy_fresh_memory(0xFF, false), big_poison = copy_fresh_memory(0x7F, false);
  if (!same_bits(nan_poison, big_poison))
    std::printf("caught: uninitialised device memory: the result depends on the poison byte (%g under 0xFF, %g under 0x7F)\n",
                nan_poison[0], big_poison[0]);
}

void small_cub_buffer() {
  constexpr int kCount = 100000;
  unsigned *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, kCount * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&out, kCount * sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(in, 0, kCount * sizeof(unsigned)));
  size_t bytes = 0;
  CHECK_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, 1000));  // sized for fewer items
  void* storage = nullptr;
  CHECK_CUDA(cudaMalloc(&storage, bytes));
  expect(cub::DeviceScan::ExclusiveSum(storage, bytes, in, out, 1000) == cudaSuccess, "storage sized for the call works");
  const cudaError_t reused = cub::DeviceScan::ExclusiveSum(storage, bytes, in, out, kCount);
  if (reused == cudaErrorInvalidValue) std::printf("caught: too-small CUB temporary storage is cudaErrorInvalidValue\n");
  size_t claimed = 1 << 20;  // a size larger than the allocation behind the pointer
  const cudaError_t lied = cub::DeviceScan::ExclusiveSum(storage, claimed, in, out, kCount);
  expect(lied == cudaErrorInvalidValue, "storage bytes beyond the allocation are cudaErrorInvalidValue");
  CHECK_CUDA(cudaFree(storage));
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
}

void allocation_cap() {
  cuda_cpu::set_memory_limit(1 << 20);
  void* fits = nullptr;
  void* beyond = nullptr;
  expect(cudaMalloc(&fits, 1 << 19) == cudaSuccess, "half the cap is allocated");
  const cudaError_t error = cudaMalloc(&beyond, 1 << 20);
  expect(error == cudaErrorMemoryAllocation && beyond == nullptr, "past the cap cudaMalloc fails with out of memory");
  expect(cudaGetLastError() == cudaErrorMemoryAllocation && cudaGetLastError() == cudaSuccess,
         "the failure is reported once by cudaGetLastError and is not sticky");
  CHECK_CUDA(cudaFree(fits));
  if (failures == 0) std::printf("caught: allocation beyond the cap\n");
}

void bad_copy() {
  int* device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, 64 * sizeof(int)));
  std::vector<int> host(128, 0);
  expect(cudaMemcpy(device, host.data(), 64 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess, "an exact copy works");
  const cudaError_t past_end = cudaMemcpy(device, host.data(), 65 * sizeof(int), cudaMemcpyHostToDevice);
  const cudaError_t wrong_kind = cudaMemcpy(host.data(), device, 64 * sizeof(int), cudaMemcpyHostToDevice);
  if (past_end == cudaErrorInvalidValue && wrong_kind == cudaErrorInvalidValue)
    std::printf("caught: copies past an allocation or of the wrong kind are cudaErrorInvalidValue\n");
  CHECK_CUDA(cudaFree(device));
}

}  // namespace

int main(int argc, char** argv) {
  const std::map<std::string, std::function<void()>> cases = {
      {"missing_syncthreads", missing_syncthreads}, {"divergent_shuffle", divergent_shuffle},
      {"out_of_bounds_write", out_of_bounds_write}, {"uninitialised_read", uninitialised_read},
      {"small_cub_buffer", small_cub_buffer},       {"allocation_cap", allocation_cap},
      {"bad_copy", bad_copy}};
  const auto it = argc == 2 ? cases.find(argv[1]) : cases.end();
  if (it == cases.end()) {
    std::fprintf(stderr, "usage: %s <case>; cases:", argv[0]);
    for (const auto& [name, run] : cases) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  it->second();
  return failures == 0 ? 0 : 1;
}
