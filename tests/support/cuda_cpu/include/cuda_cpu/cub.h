#pragma once
// Stand-ins for the CUB algorithms the project calls. Device algorithms keep CUB's two-call
// protocol and check it: the first call (null storage) asks for a size that grows with the
// input, the second must pass at least that much device memory or it fails with
// cudaErrorInvalidValue as CUB does, never corrupting memory silently; the work is queued on
// the stream and scribbles over the temporary storage, as the real algorithms use it. Block
// algorithms meet at __syncthreads like CUB's, and need every thread of the block.
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_cpu/device_api.h"
#include "cuda_cpu/runtime_api.h"

namespace cuda_cpu {

// Temporary bytes a device algorithm over `items` asks for: a fixed header plus per-tile state,
// as CUB's decoupled look-back scan needs.
inline size_t cub_temp_bytes(long long items) { return 256 + size_t(items > 0 ? items : 0) / 128 * 16; }

// Checks the second call of the protocol; "" when `storage` holds `bytes` >= what `items` need.
std::string cub_storage_problem(const void* storage, size_t bytes, long long items);
// Queues `work` after earlier work on `stream`, first overwriting the temporary storage.
void cub_enqueue(const char* algorithm, cudaStream_t stream, void* storage, size_t bytes, std::function<void()> work);

template <class Work>
cudaError_t cub_device_call(const char* algorithm, void* storage, size_t& bytes, long long items, cudaStream_t stream,
                            Work work) {
  if (items < 0) return cudaErrorInvalidValue;
  if (!storage) {
    bytes = cub_temp_bytes(items);
    return cudaSuccess;
  }
  if (std::string problem = cub_storage_problem(storage, bytes, items); !problem.empty()) {
    std::fprintf(stderr, "cuda_cpu: %s: %s\n", algorithm, problem.c_str());
    return cudaErrorInvalidValue;
  }
  cub_enqueue(algorithm, stream, storage, cub_temp_bytes(items), std::function<void()>(std::move(work)));
  return cudaSuccess;
}

}  // namespace cuda_cpu

namespace cub {

struct Sum {
  template <class T>
  T operator()(const T& a, const T& b) const { return a + b; }
};
struct Max {
  template <class T>
  T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};

template <class It>
using ValueOf = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<It>())>>;

struct DeviceScan {
  template <class In, class Out>
  static cudaError_t ExclusiveSum(void* storage, size_t& bytes, In in, Out out, long long items, cudaStream_t stream = nullptr) {
    return cuda_cpu::cub_device_call("cub::DeviceScan::ExclusiveSum", storage, bytes, items, stream, [=] {
      ValueOf<In> running{};
      for (long long i = 0; i < items; ++i) {
        const ValueOf<In> value = in[i];  // read before writing: in place is allowed
        out[i] = running;
        running = running + value;
      }
    });
  }
  template <class In, class Out, class Op, class Init>
  static cudaError_t ExclusiveScan(void* storage, size_t& bytes, In in, Out out, Op op, Init init, long long items,
                                   cudaStream_t stream = nullptr) {
    return cuda_cpu::cub_device_call("cub::DeviceScan::ExclusiveScan", storage, bytes, items, stream, [=] {
      Init running = init;
      for (long long i = 0; i < items; ++i) {
        const ValueOf<In> value = in[i];  // read before writing: in place is allowed
        out[i] = running;
        running = op(running, value);
      }
    });
  }
  template <class In, class Out>
  static cudaError_t InclusiveSum(void* storage, size_t& bytes, In in, Out out, long long items, cudaStream_t stream = nullptr) {
    return cuda_cpu::cub_device_call("cub::DeviceScan::InclusiveSum", storage, bytes, items, stream, [=] {
      ValueOf<In> running{};
      for (long long i = 0; i < items; ++i) {
        running = running + ValueOf<In>(in[i]);
        out[i] = running;
      }
    });
  }
};

// Stable, as CUB's: equal keys keep their input order. Only bits [begin_bit, end_bit) of a key
// order it, as in CUB, so a caller passing too few bits sorts wrongly here too.
struct DeviceRadixSort {
  // Ascending over the whole key; numbers without NaNs or signed zeros, where CUB's bit order is
  // the numeric one.
  template <class Key>
  static cudaError_t SortKeys(void* storage, size_t& bytes, const Key* keys_in, Key* keys_out, long long items,
                              int begin_bit = 0, int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = nullptr) {
    static_assert(std::is_arithmetic_v<Key>, "the stand-in sorts numbers");
    if (begin_bit != 0 || end_bit != int(sizeof(Key) * 8)) return cudaErrorInvalidValue;
    return cuda_cpu::cub_device_call("cub::DeviceRadixSort::SortKeys", storage, bytes, items, stream, [=] {
      std::vector<Key> keys(keys_in, keys_in + items);
      std::sort(keys.begin(), keys.end());
      std::copy(keys.begin(), keys.end(), keys_out);
    });
  }

  template <class Key, class Value>
  static cudaError_t SortPairsDescending(void* storage, size_t& bytes, const Key* keys_in, Key* keys_out,
                                         const Value* values_in, Value* values_out, long long items, int begin_bit = 0,
                                         int end_bit = int(sizeof(Key) * 8), cudaStream_t stream = nullptr) {
    static_assert(std::is_unsigned_v<Key>, "the stand-in sorts unsigned keys");
    if (begin_bit < 0 || end_bit > int(sizeof(Key) * 8) || begin_bit > end_bit) return cudaErrorInvalidValue;
    return cuda_cpu::cub_device_call("cub::DeviceRadixSort::SortPairsDescending", storage, bytes, items, stream, [=] {
      const size_t n = static_cast<size_t>(items);
      const int width = end_bit - begin_bit;
      const Key mask = width == int(sizeof(Key) * 8) ? Key(~Key(0)) : Key((Key(1) << width) - 1);
      // No bits to sort by (begin_bit == end_bit): every key is equal, the order stays.
      auto digits = [=](Key k) { return width == 0 ? Key(0) : Key(k >> begin_bit) & mask; };
      std::vector<size_t> order(n);
      for (size_t i = 0; i < n; ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return digits(keys_in[a]) > digits(keys_in[b]); });
      std::vector<Key> keys(n);
      std::vector<Value> values(n);
      for (size_t i = 0; i < n; ++i) {
        keys[i] = keys_in[order[i]];
        values[i] = values_in[order[i]];
      }
      std::copy(keys.begin(), keys.end(), keys_out);
      std::copy(values.begin(), values.end(), values_out);
    });
  }
};

struct DeviceReduce {
  template <class In, class Out, class Op, class T>
  static cudaError_t Reduce(void* storage, size_t& bytes, In in, Out out, long long items, Op op, T init,
                            cudaStream_t stream = nullptr) {
    return cuda_cpu::cub_device_call("cub::DeviceReduce::Reduce", storage, bytes, items, stream, [=] {
      T total = init;
      for (long long i = 0; i < items; ++i) total = op(total, T(in[i]));
      *out = total;
    });
  }
  template <class In, class Out>
  static cudaError_t Sum(void* storage, size_t& bytes, In in, Out out, long long items, cudaStream_t stream = nullptr) {
    return Reduce(storage, bytes, in, out, items, cub::Sum{}, ValueOf<In>{}, stream);
  }
  template <class In, class Out>
  static cudaError_t Max(void* storage, size_t& bytes, In in, Out out, long long items, cudaStream_t stream = nullptr) {
    return Reduce(storage, bytes, in, out, items, cub::Max{}, std::numeric_limits<ValueOf<In>>::lowest(), stream);
  }
};

struct DeviceSegmentedReduce {
  template <class In, class Out, class Offsets, class Op, class T>
  static cudaError_t Reduce(void* storage, size_t& bytes, In in, Out out, long long segments, Offsets begin, Offsets end,
                            Op op, T init, cudaStream_t stream = nullptr) {
    return cuda_cpu::cub_device_call("cub::DeviceSegmentedReduce::Reduce", storage, bytes, segments, stream, [=] {
      for (long long s = 0; s < segments; ++s) {
        T total = init;
        for (auto i = begin[s]; i < end[s]; ++i) total = op(total, T(in[i]));
        out[s] = total;
      }
    });
  }
};

// Every thread of the block (BlockDim threads, x fastest) must call; the result is thread 0's.
template <class T, int BlockDimX, int Algorithm = 0, int BlockDimY = 1, int BlockDimZ = 1>
class BlockReduce {
  static constexpr int kThreads = BlockDimX * BlockDimY * BlockDimZ;

 public:
  struct TempStorage {
    T values[kThreads];
    bool arrived[kThreads];
  };
  explicit BlockReduce(TempStorage& storage) : storage_(storage) {}

  template <class Op>
  T Reduce(T input, Op op, const std::source_location& where = std::source_location::current()) {
    const int t = linear_thread();
    storage_.values[t] = input;
    storage_.arrived[t] = true;
    __syncthreads(where);
    if (t != 0) return input;  // as CUB: only thread 0's result is defined
    for (int i = 0; i < kThreads; ++i)
      if (!storage_.arrived[i]) missing("cub::BlockReduce", i, where);
    T total = storage_.values[0];
    storage_.arrived[0] = false;
    for (int i = 1; i < kThreads; ++i) {
      total = op(total, storage_.values[i]);
      storage_.arrived[i] = false;
    }
    return total;
  }
  T Sum(T input, const std::source_location& where = std::source_location::current()) { return Reduce(input, cub::Sum{}, where); }

 private:
  TempStorage& storage_;
  static int linear_thread() {
    if (int(blockDim.x * blockDim.y * blockDim.z) != kThreads) cuda_cpu_block_size_mismatch(kThreads);
    return int(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  }
  [[noreturn]] static void cuda_cpu_block_size_mismatch(int threads);
  [[noreturn]] static void missing(const char* what, int thread, const std::source_location& where);
};

template <class T, int BlockDimX, int Algorithm = 0, int BlockDimY = 1, int BlockDimZ = 1>
class BlockScan {
  static constexpr int kThreads = BlockDimX * BlockDimY * BlockDimZ;

 public:
  struct TempStorage {
    T values[kThreads];
  };
  explicit BlockScan(TempStorage& storage) : storage_(storage) {}

  void ExclusiveSum(T input, T& output, const std::source_location& where = std::source_location::current()) {
    const int t = int(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
    storage_.values[t] = input;
    __syncthreads(where);
    if (t == 0) {  // one pass, in place: prefix sums exclusive of each thread's own value
      T running{};
      for (int i = 0; i < kThreads; ++i) {
        const T value = storage_.values[i];
        storage_.values[i] = running;
        running = running + value;
      }
    }
    __syncthreads(where);
    output = storage_.values[t];
  }

 private:
  TempStorage& storage_;
};

}  // namespace cub

namespace cuda_cpu {
[[noreturn]] void cub_block_defect(const char* what, int thread, int threads, const std::source_location& where);
}

template <class T, int X, int A, int Y, int Z>
void cub::BlockReduce<T, X, A, Y, Z>::cuda_cpu_block_size_mismatch(int threads) {
  cuda_cpu::cub_block_defect("cub::BlockReduce is declared for a different block size", -1, threads, std::source_location::current());
}
template <class T, int X, int A, int Y, int Z>
void cub::BlockReduce<T, X, A, Y, Z>::missing(const char* what, int thread, const std::source_location& where) {
  cuda_cpu::cub_block_defect(what, thread, kThreads, where);
}
