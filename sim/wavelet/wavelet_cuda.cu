// The CUDA lifting transforms of thesis §3.4.5–3.4.6 (see wavelet_cuda.h).
//
// Horizontal pass: one block per row reads the row into shared memory with coalesced reads,
// split into its bands; every lifting step first mirrors the source band's border (the
// boundary condition), then lifts the target band, a barrier after each; the row goes back with
// coalesced writes, approximations first (Fig. 3.5, bottom).
//
// Vertical pass: one block per slab of kLanes adjacent columns (threads kLanes × kThreadRows,
// Fig. 3.6). The slab is too tall for shared memory, so a window of kChunk row pairs walks down
// it (Fig. 3.7): each window holds its chunk with kHaloAbove pairs above and kHaloBelow below,
// lifts all steps, and writes back only its chunk. Where the thesis copies the partly lifted
// overlap rows to the top of the next window (Algorithm 3.1, lines 11 and 18) this window
// re-reads its halo (from L2) and lifts it again: one code path for top, middle and bottom
// windows, the bottom handled by the same per-step mirroring as the CPU, for ~30% more reads.
// A window's halo only has to absorb how far wrong values at its cut edges spread: at most two
// band samples per step, four over any of our schemes.
//
// Passes read one buffer and write another: the vertical pass writes its output rows
// de-interleaved, ahead of rows it has yet to read.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "engine/core/error.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/wavelet/lifting_scheme.h"
#include "sim/wavelet/wavelet_cuda.h"

namespace meniscus::sim::wavelet {
namespace {

constexpr int kMargin = 3;
constexpr int kRowThreads = 256;
constexpr int kRowBand = 4096;  // band samples in shared memory: rows of up to 8192 samples
constexpr int kLanes = 32;      // columns of a slab: one warp, 128 contiguous bytes of 4-byte samples
constexpr int kThreadRows = 8;
constexpr int kChunk = 64;      // row pairs each window writes back
constexpr int kHaloAbove = 12;  // > 4 (spread) + 3 (mirror reach) + margin for the bottom mirror
constexpr int kHaloBelow = 8;
constexpr int kWindow = kHaloAbove + kChunk + kHaloBelow;

// std::min/max are not device functions without --expt-relaxed-constexpr.
__device__ inline long smaller(long a, long b) { return a < b ? a : b; }
__device__ inline long larger(long a, long b) { return a < b ? b : a; }

template <class T>
__device__ void scale_band(T* band, long count, long lanes, float factor, int first, int step) {
  for (long i = first; i < count * lanes; i += step) band[i] = T(band[i] * factor);
}

template <class T>
__global__ void lift_rows_kernel(const T* src, T* dst, long n, long rows_y, long pitch_y, long pitch_z,
                                 LiftingScheme scheme, bool inverse) {
  __shared__ T low_storage[kRowBand + 2 * kMargin];
  __shared__ T high_storage[kRowBand + 2 * kMargin];
  T* low = low_storage + kMargin;
  T* high = high_storage + kMargin;
  const long y = long(blockIdx.x) % rows_y, z = long(blockIdx.x) / rows_y;
  const T* in = src + z * pitch_z + y * pitch_y;
  T* out = dst + z * pitch_z + y * pitch_y;
  const long m = low_count(n), d = high_count(n);
  const int tid = int(threadIdx.x), threads = int(blockDim.x);
  const bool scaled = std::is_floating_point<T>::value && (scheme.low_scale != 1.0f || scheme.high_scale != 1.0f);

  for (long i = tid; i < n; i += threads) {
    const T v = in[i];
    if (inverse)
      (i < m ? low[i] : high[i - m]) = v;
    else
      ((i & 1) ? high[i >> 1] : low[i >> 1]) = v;
  }
  __syncthreads();
  if (inverse && scaled) {
    scale_band(low, m, 1, 1.0f / scheme.low_scale, tid, threads);
    scale_band(high, d, 1, 1.0f / scheme.high_scale, tid, threads);
    __syncthreads();
  }
  for (int s = 0; s < scheme.count; ++s) {
    const LiftingStep& step = scheme.steps[inverse ? scheme.count - 1 - s : s];
    T* target = step.updates_even ? low : high;
    T* source = step.updates_even ? high : low;
    const long target_count = step.updates_even ? m : d, source_count = step.updates_even ? d : m;
    if (tid < 2 * kMargin) {  // boundary condition: mirror the source band's border
      const long i = tid < kMargin ? tid - kMargin : source_count + tid - kMargin;
      source[i] = source[mirrored_band_index(i, step.updates_even ? 1 : 0, n)];
    }
    __syncthreads();
    for (long k = tid; k < target_count; k += threads)
      target[k] = lift_sample(target[k], source + k + step.first, 1, step, inverse);
    __syncthreads();
  }
  if (!inverse && scaled) {
    scale_band(low, m, 1, scheme.low_scale, tid, threads);
    scale_band(high, d, 1, scheme.high_scale, tid, threads);
    __syncthreads();
  }
  for (long i = tid; i < n; i += threads) {
    if (inverse)
      out[i] = (i & 1) ? high[i >> 1] : low[i >> 1];
    else
      out[i] = i < m ? low[i] : high[i - m];
  }
}

// Lines of n samples `sample_stride` apart; lane l of outer o starts at o·outer_stride +
// l·lane_stride. Grid: (lanes / kLanes, outer count); block: kLanes × kThreadRows.
template <class T>
__global__ void lift_strided_kernel(const T* src, T* dst, long n, long sample_stride, long lane_count, long lane_stride,
                                    long outer_stride, LiftingScheme scheme, bool inverse) {
  __shared__ T low_window[kWindow + 2 * kMargin][kLanes];
  __shared__ T high_window[kWindow + 2 * kMargin][kLanes];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const long lane = long(blockIdx.x) * kLanes + tx;
  const bool active = lane < lane_count;
  const long line_offset = long(blockIdx.y) * outer_stride + (active ? lane : 0) * lane_stride;
  const T* in = src + line_offset;
  T* out = dst + line_offset;
  const long m = low_count(n), d = high_count(n);
  const bool scaled = std::is_floating_point<T>::value && (scheme.low_scale != 1.0f || scheme.high_scale != 1.0f);
  // Sample row of band index k in the input and the output.
  auto low_row_in = [&](long k) { return inverse ? k : 2 * k; };
  auto high_row_in = [&](long k) { return inverse ? m + k : 2 * k + 1; };
  auto low_row_out = [&](long k) { return inverse ? 2 * k : k; };
  auto high_row_out = [&](long k) { return inverse ? 2 * k + 1 : m + k; };

  for (long a = 0; a < m; a += kChunk) {
    const long b = smaller(a + kChunk, m);
    const long first = larger(0, a - kHaloAbove);
    const long low_end = smaller(m, b + kHaloBelow), high_end = smaller(d, b + kHaloBelow);
    const long low_rows = low_end - first, high_rows = high_end - first;
    for (long p = ty; p < low_rows; p += kThreadRows)
      low_window[p + kMargin][tx] = active ? in[low_row_in(first + p) * sample_stride] : T(0);
    for (long p = ty; p < high_rows; p += kThreadRows)
      high_window[p + kMargin][tx] = active ? in[high_row_in(first + p) * sample_stride] : T(0);
    __syncthreads();
    if (inverse && scaled) {
      for (long p = ty; p < low_rows; p += kThreadRows) low_window[p + kMargin][tx] *= T(1.0f / scheme.low_scale);
      for (long p = ty; p < high_rows; p += kThreadRows) high_window[p + kMargin][tx] *= T(1.0f / scheme.high_scale);
      __syncthreads();
    }
    for (int s = 0; s < scheme.count; ++s) {
      const LiftingStep& step = scheme.steps[inverse ? scheme.count - 1 - s : s];
      T(*target)[kLanes] = step.updates_even ? low_window : high_window;
      T(*source)[kLanes] = step.updates_even ? high_window : low_window;
      const long target_rows = step.updates_even ? low_rows : high_rows;
      const long source_rows = step.updates_even ? high_rows : low_rows;
      const long source_length = step.updates_even ? d : m;
      const int parity = step.updates_even ? 1 : 0;
      if (ty < 2 * kMargin) {
        // Margins: mirrored where the window meets the signal's end, else a copy of the edge
        // (a wrong value whose spread the halo absorbs).
        const long local = ty < kMargin ? ty - kMargin : source_rows + ty - kMargin;
        const bool at_end = ty < kMargin ? first == 0 : first + source_rows == source_length;
        const long from =
            at_end ? mirrored_band_index(first + local, parity, n) - first : smaller(larger(local, 0), source_rows - 1);
        source[local + kMargin][tx] = source[from + kMargin][tx];
      }
      __syncthreads();
      for (long p = ty; p < target_rows; p += kThreadRows)
        target[p + kMargin][tx] =
            lift_sample(target[p + kMargin][tx], &source[p + kMargin + step.first][tx], kLanes, step, inverse);
      __syncthreads();
    }
    if (!inverse && scaled) {
      for (long p = ty; p < low_rows; p += kThreadRows) low_window[p + kMargin][tx] *= T(scheme.low_scale);
      for (long p = ty; p < high_rows; p += kThreadRows) high_window[p + kMargin][tx] *= T(scheme.high_scale);
      __syncthreads();
    }
    if (active) {
      for (long k = a + ty; k < b; k += kThreadRows)
        out[low_row_out(k) * sample_stride] = low_window[k - first + kMargin][tx];
      for (long k = a + ty; k < smaller(b, d); k += kThreadRows)
        out[high_row_out(k) * sample_stride] = high_window[k - first + kMargin][tx];
    }
    __syncthreads();  // the next window overwrites shared memory
  }
}

// The full array's pitches and one level's region.
struct Region {
  long size[3];
  long pitch_y, pitch_z;
};

void check_grid(long blocks_y, const char* what) {
  if (blocks_y > 65535)
    throw DeviceError(std::string("wavelet: ") + what + " has " + std::to_string(blocks_y) +
                      " lines across a slab, more than CUDA's 65535 grid rows");
}

template <class T>
void rows_pass(const T* src, T* dst, const Region& r, const LiftingScheme& scheme, bool inverse) {
  const long n = r.size[0];
  if (n <= 2 * kRowBand) {
    const unsigned blocks = unsigned(r.size[1] * r.size[2]);
    launch<lift_rows_kernel<T>>({dim3(blocks), dim3(kRowThreads)}, src, dst, n, r.size[1], r.pitch_y, r.pitch_z, scheme,
                                inverse);
  } else {  // rows too long for shared memory: lifted as lines of the windowed pass, rows as lanes
    check_grid(r.size[2], "the volume");
    const dim3 grid(unsigned((r.size[1] + kLanes - 1) / kLanes), unsigned(r.size[2]));
    launch<lift_strided_kernel<T>>({grid, dim3(kLanes, kThreadRows)}, src, dst, n, 1L, r.size[1], r.pitch_y, r.pitch_z,
                                   scheme, inverse);
  }
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

// Lines along axis 1 (y) or 2 (z), slabs of adjacent x.
template <class T>
void strided_pass(const T* src, T* dst, const Region& r, int axis, const LiftingScheme& scheme, bool inverse) {
  const long n = r.size[axis], stride = axis == 1 ? r.pitch_y : r.pitch_z;
  const long outer = axis == 1 ? r.size[2] : r.size[1], outer_stride = axis == 1 ? r.pitch_z : r.pitch_y;
  check_grid(outer, axis == 1 ? "the volume's depth" : "the volume's height");
  const dim3 grid(unsigned((r.size[0] + kLanes - 1) / kLanes), unsigned(outer));
  launch<lift_strided_kernel<T>>({grid, dim3(kLanes, kThreadRows)}, src, dst, n, stride, r.size[0], 1L, outer_stride,
                                 scheme, inverse);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

template <class T>
double transform(T* host, size_t count, const Shape& shape, Wavelet wavelet, int levels, bool inverse) {
  check_transform(shape, levels, count);
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("wavelet: " + why);
  DeviceArray<T> data, scratch;
  data.reserve(count);
  scratch.reserve(count);
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(data.get(), host, sizeof(T) * count, cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  MENISCUS_SIM_CUDA_CHECK(cudaEventCreate(&start));
  MENISCUS_SIM_CUDA_CHECK(cudaEventCreate(&stop));
  MENISCUS_SIM_CUDA_CHECK(cudaEventRecord(start));
  const LiftingScheme scheme = lifting_scheme(wavelet);
  T* a = data.get();
  T* b = scratch.get();
  for (int i = 0; i < levels; ++i) {
    const auto s = shape.level_size(inverse ? levels - 1 - i : i);
    const Region r{{long(s[0]), long(s[1]), long(s[2])}, long(shape.size[0]), long(shape.size[0]) * shape.size[1]};
    if (shape.dimensions == 2) {
      if (!inverse) {
        strided_pass<T>(a, b, r, 1, scheme, false);
        rows_pass<T>(b, a, r, scheme, false);
      } else {
        rows_pass<T>(a, b, r, scheme, true);
        strided_pass<T>(b, a, r, 1, scheme, true);
      }
    } else if (!inverse) {
      strided_pass<T>(a, b, r, 2, scheme, false);
      strided_pass<T>(b, a, r, 1, scheme, false);
      rows_pass<T>(a, a, r, scheme, false);
    } else {
      rows_pass<T>(a, a, r, scheme, true);
      strided_pass<T>(a, b, r, 1, scheme, true);
      strided_pass<T>(b, a, r, 2, scheme, true);
    }
  }
  MENISCUS_SIM_CUDA_CHECK(cudaEventRecord(stop));
  MENISCUS_SIM_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  MENISCUS_SIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(host, data.get(), sizeof(T) * count, cudaMemcpyDeviceToHost));
  return double(ms);
}

}  // namespace

template <class T>
double forward_cuda(T* data, size_t count, const Shape& shape, Wavelet wavelet, int levels) {
  return transform(data, count, shape, wavelet, levels, false);
}
template <class T>
double inverse_cuda(T* data, size_t count, const Shape& shape, Wavelet wavelet, int levels) {
  return transform(data, count, shape, wavelet, levels, true);
}

template double forward_cuda<int16_t>(int16_t*, size_t, const Shape&, Wavelet, int);
template double forward_cuda<int32_t>(int32_t*, size_t, const Shape&, Wavelet, int);
template double forward_cuda<float>(float*, size_t, const Shape&, Wavelet, int);
template double inverse_cuda<int16_t>(int16_t*, size_t, const Shape&, Wavelet, int);
template double inverse_cuda<int32_t>(int32_t*, size_t, const Shape&, Wavelet, int);
template double inverse_cuda<float>(float*, size_t, const Shape&, Wavelet, int);

}  // namespace meniscus::sim::wavelet
