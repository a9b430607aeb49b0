#pragma once
// CUB's temporary storage for a sequence of device-wide CUB calls, grown as they need it.
#include <cstddef>

#include "sim/common/cuda_support.cuh"

namespace meniscus::sim {

class CubStorage {
 public:
  // Calls f(storage, bytes) twice, the CUB way: first to size the storage, then to do the work.
  template <class F>
  void run(F f) {
    size_t bytes = 0;
    MENISCUS_SIM_CUDA_CHECK(f(static_cast<void*>(nullptr), bytes));
    storage_.reserve(bytes ? bytes : 1, "CUB's temporary storage");
    MENISCUS_SIM_CUDA_CHECK(f(static_cast<void*>(storage_.get()), bytes));
  }

 private:
  DeviceArray<unsigned char> storage_;
};

}  // namespace meniscus::sim
