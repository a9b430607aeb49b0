#pragma once
// What every CUDA simulation backend needs: a checked call that throws DeviceError with the
// file, line, call and CUDA's message, and a device array that owns its allocation.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/core/error.h"

#define MENISCUS_SIM_CUDA_CHECK(call)                                                                        \
  do {                                                                                                       \
    const cudaError_t sim_cuda_status_ = (call);                                                             \
    if (sim_cuda_status_ != cudaSuccess)                                                                     \
      throw ::meniscus::DeviceError(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #call      \
                                    " failed: " + cudaGetErrorString(sim_cuda_status_));                     \
  } while (0)

namespace meniscus::sim {

// Whether any CUDA device answers (without a Vulkan device to match: tests, benchmarks, batch
// tools). "CUDA driver version is insufficient" is what a machine without a GPU answers.
inline bool cuda_device_answers(std::string* why) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    if (why) *why = std::string("no CUDA device (") + cudaGetErrorString(error) + ")";
    cudaGetLastError();  // clear the sticky error for later calls
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device";
    return false;
  }
  return true;
}

// A device array that only grows. `reserve` drops the contents when it grows (scratch that is
// rewritten every step); `grow_keeping` copies the first `used` elements over.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_) cudaFree(data_);
  }
  void reserve(size_t n) {
    if (n <= size_) return;
    if (data_) MENISCUS_SIM_CUDA_CHECK(cudaFree(data_));
    data_ = nullptr;
    size_ = 0;
    MENISCUS_SIM_CUDA_CHECK(cudaMalloc(&data_, sizeof(T) * n));
    size_ = n;
  }
  void grow_keeping(size_t n, size_t used) {
    if (n <= size_) return;
    const size_t capacity = std::max(n, 2 * size_);
    T* fresh = nullptr;
    MENISCUS_SIM_CUDA_CHECK(cudaMalloc(&fresh, sizeof(T) * capacity));
    if (data_ && used) MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(fresh, data_, sizeof(T) * used, cudaMemcpyDeviceToDevice));
    if (data_) cudaFree(data_);
    data_ = fresh;
    size_ = capacity;
  }
  T* get() const { return data_; }
  size_t size() const { return size_; }
  void swap(DeviceArray& other) {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }
  std::vector<T> download(size_t n) const {
    std::vector<T> host(n);
    if (n) MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(host.data(), data_, sizeof(T) * n, cudaMemcpyDeviceToHost));
    return host;
  }
  T read(size_t i) const {
    T value;
    MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(&value, data_ + i, sizeof(T), cudaMemcpyDeviceToHost));
    return value;
  }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace meniscus::sim
