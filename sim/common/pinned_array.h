#pragma once
// Page-locked host memory for what the device writes back without the host waiting: a
// device-to-host copy into pageable memory makes the host wait for the copy, which is what
// such a read-back is there to avoid.
#include <cuda_runtime.h>

#include <cstddef>

#include "sim/common/cuda_support.cuh"

namespace meniscus::sim {

template <class T>
class PinnedArray {
 public:
  explicit PinnedArray(size_t n) {
    MENISCUS_SIM_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), sizeof(T) * n));
    for (size_t i = 0; i < n; ++i) new (data_ + i) T{};
  }
  ~PinnedArray() { cudaFreeHost(data_); }
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* get() { return data_; }

 private:
  T* data_ = nullptr;
};

}  // namespace meniscus::sim
