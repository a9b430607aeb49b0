#pragma once
// What every CUDA simulation backend needs: a checked call that throws DeviceError with the
// file, line, call and CUDA's message, and a device array that owns its allocation.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
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

// cudaMalloc of `bytes` for `what`. A device without that much free is a DeviceMemoryError
// saying how much was asked and how much was free; the runtime's error is cleared, since
// nothing is broken (a later cudaGetLastError() must not report it again).
inline void* device_allocate(size_t bytes, const char* what) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status == cudaSuccess) return pointer;
  cudaGetLastError();
  if (status != cudaErrorMemoryAllocation)
    throw DeviceError(std::string("cudaMalloc for ") + what + " failed: " + cudaGetErrorString(status));
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) cudaGetLastError();
  auto size = [](size_t b) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = double(b);
    int unit = 0;
    while (value >= 1024.0 && unit < 4) value /= 1024.0, ++unit;
    char text[32];
    std::snprintf(text, sizeof text, unit ? "%.1f %s" : "%.0f %s", value, units[unit]);
    return std::string(text);
  };
  throw DeviceMemoryError("out of device memory: " + std::string(what) + " needs " + size(bytes) +
                          ", the device has " + size(free_bytes) + " free of " + size(total_bytes));
}

// A device array that only grows. `reserve` drops the contents when it grows (scratch that is
// rewritten every step); `grow_keeping` copies the first `used` elements over. Out of memory,
// both throw DeviceMemoryError and keep what they had (DeviceGrowth grows several arrays all
// or nothing).
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_) cudaFree(data_);
  }
  void reserve(size_t n, const char* what = "a device array") {
    if (n <= size_) return;
    T* fresh = static_cast<T*>(device_allocate(sizeof(T) * n, what));
    if (data_) cudaFree(data_);
    data_ = fresh;
    size_ = n;
  }
  void grow_keeping(size_t n, size_t used, const char* what = "a device array") {
    if (n <= size_) return;
    DeviceArray fresh;  // frees the new block if the copy throws
    fresh.reserve(std::max(n, 2 * size_), what);
    if (data_ && used)
      MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(fresh.data_, data_, sizeof(T) * used, cudaMemcpyDeviceToDevice));
    swap(fresh);  // `fresh` frees the old block
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

// Grows several device arrays all or nothing: each reserve() allocates beside the array's old
// allocation; commit() frees the old ones; destroyed uncommitted (an allocation threw), it puts
// every old allocation back and frees the new ones, so the owner is as it was. The peak is the
// old and the new together, the price of going on as before when the device is full.
class DeviceGrowth {
 public:
  DeviceGrowth() = default;
  DeviceGrowth(const DeviceGrowth&) = delete;
  DeviceGrowth& operator=(const DeviceGrowth&) = delete;
  ~DeviceGrowth() {
    for (auto undo = undo_.rbegin(); undo != undo_.rend(); ++undo) (*undo)();
  }

  // Contents are dropped, as DeviceArray::reserve drops them.
  template <class T>
  void reserve(DeviceArray<T>& array, size_t n, const char* what) {
    if (n <= array.size()) return;
    undo_.reserve(undo_.size() + 1);  // nothing below throws once the new block is swapped in
    auto old = std::make_shared<DeviceArray<T>>();
    old->reserve(n, what);  // the new allocation, swapped in below
    array.swap(*old);
    // Run: the old allocation back in place (`old` then frees the new one). Dropped: `old`
    // frees the old allocation.
    undo_.push_back([&array, old] { array.swap(*old); });
  }
  void commit() { undo_.clear(); }

 private:
  std::vector<std::function<void()>> undo_;
};

}  // namespace meniscus::sim
