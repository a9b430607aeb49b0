#pragma once
// The CPU lifting transform of wavelet_cpu.h, level by level: rows one per task, columns and z
// lines in strips of adjacent lines, a volume's y and x slice by slice. A template over the
// sample type, instantiated once per type in its own file (wavelet_cpu_<type>.cpp) so the three
// compile in parallel. Internal to the CPU backend.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <span>
#include <vector>

#include "sim/wavelet/lifting_isa.h"
#include "sim/wavelet/wavelet_cpu.h"

namespace meniscus::sim::wavelet {
namespace cpu_detail {

// Lines lifted together in a strip: 64 lanes keep a 1080-sample column strip of int32 in L2.
constexpr long kStripLanes = 64;
// A volume's z lines are a slice apart, a page or more: wider strips read more of each page.
constexpr long kDepthStripLanes = 256;

template <class T>
T* thread_scratch(size_t size) {
  thread_local std::vector<T> scratch;
  if (scratch.size() < size) scratch.resize(size);
  return scratch.data();
}

// Where the region of one level lies in the full array.
struct Region {
  long size[3];
  long pitch_y, pitch_z;  // of the full array
};

// AVX2 where the CPU has it, unless MENISCUS_WAVELET_ISA=baseline (wavelet_cpu.cpp).
bool use_avx2();

template <class T, Wavelet W, bool Inverse>
void lift_rows(T* data, const Region& r) {
  const bool avx2 = use_avx2();
  const long rows = r.size[1] * r.size[2];
  tbb::parallel_for(tbb::blocked_range<long>(0, rows, 8), [&](const tbb::blocked_range<long>& range) {
    T* scratch = thread_scratch<T>(scratch_size(r.size[0], 1));
    for (long row = range.begin(); row < range.end(); ++row) {
      const long y = row % r.size[1], z = row / r.size[1];
      lift_row_on<T, W, Inverse>(avx2, data + z * r.pitch_z + y * r.pitch_y, r.size[0], scratch);
    }
  });
}

// Lines along `axis` (1: y, 2: z), in strips of adjacent x.
template <class T, Wavelet W, bool Inverse>
void lift_strips(T* data, const Region& r, int axis) {
  const bool avx2 = use_avx2();
  const long strip_lanes = axis == 2 ? kDepthStripLanes : kStripLanes;
  const long n = r.size[axis], stride = axis == 1 ? r.pitch_y : r.pitch_z;
  const int other = axis == 1 ? 2 : 1;  // the axis the strips are also spread over
  const long other_pitch = other == 1 ? r.pitch_y : r.pitch_z;
  const long strips_x = (r.size[0] + strip_lanes - 1) / strip_lanes;
  const long tasks = strips_x * r.size[other];
  tbb::parallel_for(tbb::blocked_range<long>(0, tasks, 1), [&](const tbb::blocked_range<long>& range) {
    T* scratch = thread_scratch<T>(scratch_size(n, strip_lanes));
    for (long task = range.begin(); task < range.end(); ++task) {
      const long x0 = (task % strips_x) * strip_lanes, o = task / strips_x;
      const long lanes = std::min(strip_lanes, r.size[0] - x0);
      lift_strip_on<T, W, Inverse>(avx2, data + o * other_pitch + x0, n, stride, strip_lanes, lanes, scratch);
    }
  });
}

// The y and x lifting of a level, slice by slice: a slice's columns then its rows (the inverse:
// rows then columns) while the slice is in cache, instead of a pass over the whole volume per
// axis. Slices are independent once the z lines are lifted, so the order of operations on
// every sample, and so every result, is that of the separate passes.
template <class T, Wavelet W, bool Inverse>
void lift_slices(T* data, const Region& r) {
  const bool avx2 = use_avx2();
  const long strips_x = (r.size[0] + kStripLanes - 1) / kStripLanes;
  tbb::parallel_for(tbb::blocked_range<long>(0, r.size[2], 1), [&](const tbb::blocked_range<long>& range) {
    T* strip_scratch = thread_scratch<T>(scratch_size(r.size[1], kStripLanes) + scratch_size(r.size[0], 1));
    T* row_scratch = strip_scratch + scratch_size(r.size[1], kStripLanes);
    for (long z = range.begin(); z < range.end(); ++z) {
      T* slice = data + z * r.pitch_z;
      auto columns = [&] {
        for (long strip = 0; strip < strips_x; ++strip) {
          const long x0 = strip * kStripLanes, lanes = std::min(kStripLanes, r.size[0] - x0);
          lift_strip_on<T, W, Inverse>(avx2, slice + x0, r.size[1], r.pitch_y, kStripLanes, lanes, strip_scratch);
        }
      };
      auto rows = [&] {
        for (long y = 0; y < r.size[1]; ++y)
          lift_row_on<T, W, Inverse>(avx2, slice + y * r.pitch_y, r.size[0], row_scratch);
      };
      if constexpr (Inverse) {
        rows();
        columns();
      } else {
        columns();
        rows();
      }
    }
  });
}

// Slices make enough tasks to share out (and are worth keeping in cache) in a volume's deeper
// levels; a plane, or a volume only a few slices deep, is lifted pass by pass.
inline bool by_slices(const Region& r) { return r.size[2] >= 4 * long(tbb::this_task_arena::max_concurrency()); }

template <class T, Wavelet W, bool Inverse>
void transform(T* data, const Shape& shape, int levels) {
  for (int step = 0; step < levels; ++step) {
    const int level = Inverse ? levels - 1 - step : step;
    const auto s = shape.level_size(level);
    const Region r{{long(s[0]), long(s[1]), long(s[2])}, long(shape.size[0]), long(shape.size[0]) * shape.size[1]};
    const bool slices = by_slices(r);
    if constexpr (!Inverse) {
      if (shape.dimensions == 3) lift_strips<T, W, false>(data, r, 2);
      if (slices) {
        lift_slices<T, W, false>(data, r);
      } else {
        lift_strips<T, W, false>(data, r, 1);
        lift_rows<T, W, false>(data, r);
      }
    } else {
      if (slices) {
        lift_slices<T, W, true>(data, r);
      } else {
        lift_rows<T, W, true>(data, r);
        lift_strips<T, W, true>(data, r, 1);
      }
      if (shape.dimensions == 3) lift_strips<T, W, true>(data, r, 2);
    }
  }
}

template <class T, bool Inverse>
void dispatch(std::span<T> data, const Shape& shape, Wavelet wavelet, int levels) {
  check_transform(shape, levels, data.size());
  switch (wavelet) {
    case Wavelet::Haar:
      return transform<T, Wavelet::Haar, Inverse>(data.data(), shape, levels);
    case Wavelet::LeGall53:
      return transform<T, Wavelet::LeGall53, Inverse>(data.data(), shape, levels);
    case Wavelet::DeslauriersDubuc97:
      return transform<T, Wavelet::DeslauriersDubuc97, Inverse>(data.data(), shape, levels);
    case Wavelet::DeslauriersDubuc137:
      return transform<T, Wavelet::DeslauriersDubuc137, Inverse>(data.data(), shape, levels);
    case Wavelet::Cdf97:
      return transform<T, Wavelet::Cdf97, Inverse>(data.data(), shape, levels);
  }
}

}  // namespace cpu_detail

template <class T>
void forward_cpu(std::span<T> data, const Shape& shape, Wavelet wavelet, int levels) {
  cpu_detail::dispatch<T, false>(data, shape, wavelet, levels);
}

template <class T>
void inverse_cpu(std::span<T> data, const Shape& shape, Wavelet wavelet, int levels) {
  cpu_detail::dispatch<T, true>(data, shape, wavelet, levels);
}

}  // namespace meniscus::sim::wavelet
