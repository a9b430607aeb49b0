// GpuLevelSetEvolution (see gpu_stl_evolution.h). Per Runge–Kutta stage: compute_rates fills
// L(φ) per active voxel in list order (as the CPU's rate array) and, at the first stage, the
// CFL speed; update_stage then forms φ ← a φn + b (φ + dt L) clamped to ±γ, in place (it reads
// no neighbour), and at the last stage snaps values near ±γ and sets the flags, as the CPU's
// TvdRungeKutta does. Compiled without fused multiply-adds (CMakeLists.txt) so each voxel
// rounds as on the CPU.
#include "sim/levelset/gpu_stl_evolution.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "sim/common/cuda_launch.cuh"
#include "sim/levelset/closest_point.h"
#include "sim/levelset/curvature.h"
#include "sim/levelset/gpu_stl_storage.cuh"
#include "sim/levelset/halo_block.h"
#include "sim/levelset/tvd_runge_kutta.h"
#include "sim/levelset/upwind.h"

namespace meniscus::sim::levelset {
namespace {

using gpu::kDirections;
using gpu::kFullMask;
using gpu::kNoTile;
using gpu::ListView;

constexpr int kUnit = kTileVoxels;  // threads per unit: one voxel each (the paper's T = 64)
constexpr int kStageBlock = 256;    // four tiles
constexpr uint32_t kMaxComputeUnits = 132 * 32;  // 32 resident 64-thread blocks on each of an H100's SMs

// Stage k: φ ← a φn + b (φ + dt L(φ, t + c dt)) — TvdRungeKutta's table.
struct Stage {
  float a, b, c;
};
constexpr Stage kEuler[] = {{0.0f, 1.0f, 0.0f}};
constexpr Stage kRk3[] = {{0.0f, 1.0f, 0.0f}, {0.75f, 0.25f, 1.0f}, {1.0f / 3.0f, 2.0f / 3.0f, 0.5f}};

struct RateParams {
  float t;
  float normal_speed;
  ThresholdSpeed threshold;
  BrushSpeed brush;
  bool extend_normal_speed;
  bool effective_normal_cfl;
  FieldVelocity velocity;
  float alpha;
  bool rescaling_speed;
  float rescaling_weight;
  float sqrt3;
};

// One unit (block) per chunk of the list (Algorithm 1): threads 0..25 keep a pointer each to the
// neighbour in their direction, found by one binary search and then moved forward only. Per
// tile: the neighbour ids and the tile itself into shared memory; the 10^3 block (the 6^3 core
// for the first-order scheme, which reads no further) gathered as gather_halo does; each thread
// evaluates its voxel as LevelSetEvolution::rate does, or (kReinit) as the Reinitialiser's
// rate does, S(φ0)(1 − |∇φ|) at every voxel, when the step's `reinit_due` flag is set (phi0 and
// reinit_due are read only then).
template <Scheme kScheme, bool kReinit = false>
__global__ void __launch_bounds__(kUnit) compute_rates(ListView view, uint32_t units, RateParams p, bool later_stage,
                                                       float c, float* rate, uint32_t* speed_bits,
                                                       const float* phi0, const uint32_t* reinit_due) {
  constexpr int kReach = stencil_reach(kScheme);
  __shared__ float block[kHaloVoxels];
  __shared__ float own[kTileVoxels];
  __shared__ uint32_t neighbours[kDirections];
  __shared__ float warp_fastest[kUnit / 32];
  if (gpu::frozen(view)) return;  // the whole grid
  if (kReinit && !*reinit_due) return;
  const ListView list = gpu::live(view);
  const int thread = threadIdx.x;
  const uint32_t unit = blockIdx.x;
  const uint32_t begin = uint32_t(uint64_t(unit) * list.size / units);
  const uint32_t end = uint32_t(uint64_t(unit + 1) * list.size / units);
  const float gamma = list.gamma;
  // The step's start time, and a later stage's t + c dt with the dt chosen on the device.
  const GpuStlCounters& counters = *list.counters;
  p.t = later_stage ? counters.step_start + c * counters.dt : counters.step_start;

  uint32_t pointer = 0;
  bool tracking = false;
  float fastest = 0, front_fastest = 0, front_curving = 0;
  for (uint32_t i = begin; i < end; ++i) {
    const TileEntry entry = list.active[i];
    const TileCoord tile = coord_of(entry.key);
    if (thread < kDirections) {
      const TileCoord n = gpu::shifted(tile, gpu::direction_offset(thread));
      uint32_t found = kNoTile;
      if (representable(n)) {
        // Translation keeps key order, so later tiles' neighbours lie further on: one search
        // (at the first representable neighbour), then forward steps.
        const TileKey target = key_of(n);
        if (!tracking) pointer = gpu::lower_bound_key(list.active, list.size, target);
        tracking = true;
        while (pointer < list.size && list.active[pointer].key < target) ++pointer;
        if (pointer < list.size && list.active[pointer].key == target) found = list.active[pointer].id;
      }
      neighbours[thread] = found;
    }
    own[thread] = gpu::load_phi(list, size_t(entry.id) * kTileVoxels + thread);
    __syncthreads();  // neighbours and own complete (and the previous tile's block fully read)

    for (int e = thread; e < kHaloVoxels; e += kUnit) {
      const int x = e % kHaloSide - kHalo, y = e / kHaloSide % kHaloSide - kHalo, z = e / (kHaloSide * kHaloSide) - kHalo;
      if (kReach < kHalo && (x < -kReach || y < -kReach || z < -kReach || x >= kTileSide + kReach ||
                             y >= kTileSide + kReach || z >= kTileSide + kReach))
        continue;
      const int dx = x < 0 ? -1 : x >= kTileSide ? 1 : 0, dy = y < 0 ? -1 : y >= kTileSide ? 1 : 0,
                dz = z < 0 ? -1 : z >= kTileSide ? 1 : 0;
      float value;
      if (!dx && !dy && !dz) {
        value = own[gpu::voxel_index(x, y, z)];
      } else {
        const uint32_t source = neighbours[gpu::direction_of(dx, dy, dz)];
        if (source == kNoTile) {
          // Beyond the band: ±γ by the sign of this tile's nearest voxel (gather_halo's rule).
          const int cx = min(max(x, 0), kTileSide - 1), cy = min(max(y, 0), kTileSide - 1), cz = min(max(z, 0), kTileSide - 1);
          value = own[gpu::voxel_index(cx, cy, cz)] < 0 ? -gamma : gamma;
        } else {
          value = gpu::load_phi(list, size_t(source) * kTileVoxels +
                                          gpu::voxel_index(x - dx * kTileSide, y - dy * kTileSide, z - dz * kTileSide));
        }
      }
      block[e] = value;
    }
    __syncthreads();  // the block complete

    const int x = thread & 3, y = thread >> 2 & 3, z = thread >> 4;
    const float* centre = block + halo_index(x, y, z);
    float l = 0;
    if (kReinit) {
      // Every voxel, as the CPU's rate does (beyond the band the clamp returns it to ±γ).
      l = reinit_rate(kScheme, centre, kHaloStrideY, kHaloStrideZ, phi0[size_t(i) * kTileVoxels + thread]);
    } else if (!flat_beyond_band(centre, kHaloStrideY, kHaloStrideZ, kReach, gamma)) {
      const glm::vec3 origin(tile.x * kTileSide, tile.y * kTileSide, tile.z * kTileSide);
      const glm::vec3 voxel = origin + glm::vec3(x, y, z);
      // Only the normal-speed and rescaling terms need both one-sided sides (Godunov);
      // advection alone takes the upwind side per axis (evolution.cpp's rule).
      const bool speed_term = p.normal_speed != 0.0f || p.threshold.volume || p.brush.sigma > 0.0f;
      const bool godunov = speed_term || p.rescaling_speed;
      const OneSidedGradient g = godunov ? one_sided_gradient(kScheme, centre, kHaloStrideY, kHaloStrideZ)
                                         : OneSidedGradient{};
      float speed = 0, stiffness = 0;
      if (speed_term) {
        const SpeedPoint point = speed_point(p.threshold, p.extend_normal_speed, voxel, centre, kHaloStrideY, kHaloStrideZ);
        const float f = p.threshold.volume    ? point.threshold.speed
                        : p.brush.sigma > 0.0f ? p.normal_speed + brush_speed_at(p.brush, point.at)
                                               : p.normal_speed;
        stiffness = point.threshold.stiffness;
        if (fabsf(centre[0]) <= 0.5f) front_fastest = fmaxf(front_fastest, fabsf(f));
        const GodunovNormal n = godunov_normal(g, f);
        l -= f * n.norm;
        speed += p.effective_normal_cfl ? n.cfl_speed : p.sqrt3 * fabsf(f);
      }
      if (p.velocity.kind != FieldVelocity::Kind::kNone) {
        const glm::vec3 u = velocity_at(p.velocity, voxel, p.t);
        l -= glm::dot(u, godunov ? upwind_gradient(g, u)
                                 : upwind_gradient(kScheme, centre, kHaloStrideY, kHaloStrideZ, u));
        speed += fabsf(u.x) + fabsf(u.y) + fabsf(u.z);
      }
      if (p.alpha > 0) {
        const float curving = p.alpha * curvature_speed(centre, kHaloStrideY, kHaloStrideZ);
        l += curving;
        if (fabsf(centre[0]) <= 0.5f) front_curving = fmaxf(front_curving, fabsf(curving));
        speed += 6 * p.alpha;
      }
      if (p.rescaling_speed) {
        const float s = centre[0] / sqrtf(centre[0] * centre[0] + 1.0f);
        const GodunovNormal n = godunov_normal(g, s);
        l += p.rescaling_weight * (s * (1.0f - n.norm));
        speed += p.rescaling_weight * (p.effective_normal_cfl ? n.cfl_speed : p.sqrt3);
      }
      speed = speed < stiffness ? stiffness : speed;
      fastest = fastest < speed ? speed : fastest;
    }
    rate[size_t(i) * kTileVoxels + thread] = l;  // thread is voxel_index(x, y, z)
  }

  // The reinitialisation's pseudo-time step is fixed and it measures no front.
  if constexpr (kReinit) return;
  // The front's largest |F| at the first stage, for the segmentation's RMS measure: warp
  // maxima straight into the counters.
  if (!later_stage) {
    front_fastest = gpu::warp_max(front_fastest);
    front_curving = gpu::warp_max(front_curving);
    if ((thread & 31) == 0) {
      atomicMax(&list.counters->front_speed_bits, __float_as_uint(front_fastest));
      atomicMax(&list.counters->front_curvature_bits, __float_as_uint(front_curving));
    }
  }
  // The unit's CFL speed: warp maxima, then the two warps, then the grid by atomicMax on the
  // bits (non-negative floats order as their bits do).
  fastest = gpu::warp_max(fastest);
  if ((thread & 31) == 0) warp_fastest[thread / 32] = fastest;
  __syncthreads();
  if (thread == 0) {
    const float unit_fastest = warp_fastest[0] < warp_fastest[1] ? warp_fastest[1] : warp_fastest[0];
    atomicMax(speed_bits, __float_as_uint(unit_fastest));
  }
}

// Before a step's first stage: its start time (the caller's, or the device's own clock) and the
// CFL speed's maximum cleared.
__global__ void begin_step(GpuStlCounters* counters, uint32_t* speed_bits, float t, bool device_time) {
  if (counters->frozen != GpuStlFrozen::kNo) return;
  counters->step_start = device_time ? float(counters->time) : t;
  counters->front_squares = 0;
  counters->front_voxels = 0;
  counters->front_speed_bits = 0;
  counters->front_curvature_bits = 0;
  *speed_bits = 0;
}

__device__ bool is_finite(float x) { return (__float_as_uint(x) & 0x7f800000u) != 0x7f800000u; }

// The CPU's dt = min(max_dt, cfl / speed), or max_dt when nothing moves, from the first stage's
// speed (a maximum: the same float in any order); an empty list passes a bounded max_dt and
// takes no time otherwise. It stays on the device, where the stages read it; a step on device
// time advances the clock by it (a refused step, dt infinite, does not).
__global__ void choose_dt(GpuStlCounters* counters, const uint32_t* speed_bits, float cfl, float max_dt, bool device_time) {
  GpuStlCounters& c = *counters;
  if (c.frozen != GpuStlFrozen::kNo) return;
  const float speed = __uint_as_float(*speed_bits);
  float chosen = max_dt;
  if (c.size == 0) {
    chosen = is_finite(max_dt) ? max_dt : 0.0f;
  } else if (speed > 0) {
    const float limit = cfl / speed;
    chosen = limit < max_dt ? limit : max_dt;  // std::min(max_dt, limit)
  }
  c.dt = chosen;
  if (!is_finite(chosen)) return;
  ++c.steps;
  if (device_time) c.time += double(chosen);
}


// One thread per active voxel in list order, blocks of whole tiles looping over the list
// (grid-stride: the size is the device's), so a tile's 64 voxels are two warps of one block
// and its flags combine through shared memory.
// A reinitialisation stage (kReinit) runs only when `reinit_due` is set, with the pseudo-time
// step `reinit_dt`, and leaves the step's front measure alone: that is the evolution's change
// (a segmentation, the one reader, runs without reinitialisation).
template <bool kFirst, bool kKeepBase, bool kLast, bool kReinit>
__global__ void __launch_bounds__(kStageBlock) update_stage(ListView view, const float* rate, float* base, Stage s,
                                                             float snap, const uint32_t* reinit_due, float reinit_dt) {
  __shared__ uint2 warp_flags[kStageBlock / 32];
  double front_squares = 0;  // this thread's share of the step's change over the front
  uint32_t front_voxels = 0;
  if (gpu::frozen(view)) return;  // the whole grid
  if (kReinit && !*reinit_due) return;
  const ListView list = gpu::live(view);
  const float dt = kReinit ? reinit_dt : list.counters->dt;
  // A step the CPU refuses (nothing moves, no max_dt bounds it): the host throws after the
  // read-back and the values stay as they were. Uniform over the grid: before any barrier.
  if (!is_finite(dt)) return;
  const float gamma = list.gamma;
  const size_t voxels = size_t(list.size) * kTileVoxels;
  for (size_t first = size_t(blockIdx.x) * kStageBlock; first < voxels; first += size_t(gridDim.x) * kStageBlock) {
    const size_t i = first + threadIdx.x;
    const uint32_t position = uint32_t(i / kTileVoxels);
    const int voxel = int(i % kTileVoxels);
    const bool inside = i < voxels;
    uint2 flags = make_uint2(0, 0);
    uint32_t id = kNoTile;
    if (inside) {
      id = list.active[position].id;
      const size_t at = size_t(id) * kTileVoxels + voxel;
      const float now = gpu::load_phi(list, at);
      // At the first stage φ is still φn: the CPU's base copy is this very value.
      const float phi_n = kFirst ? now : base[i];
      if (kFirst && kKeepBase) base[i] = now;
      float next = s.a * phi_n + s.b * (now + dt * rate[i]);
      next = next < -gamma ? -gamma : gamma < next ? gamma : next;  // std::clamp
      if (kLast && fabsf(next) > snap) next = copysignf(gamma, next);
      next = gpu::store_phi(list, at, next);
      if (kLast) {
        flags = gpu::voxel_flags(next, gamma, voxel);
        if (!kReinit && fabsf(phi_n) <= 0.5f) {
          front_squares += double(next - phi_n) * double(next - phi_n);
          ++front_voxels;
        }
      }
    }
    if (!kLast) continue;
    flags.x = __reduce_or_sync(kFullMask, flags.x);
    flags.y = __reduce_or_sync(kFullMask, flags.y);
    const int warp = threadIdx.x / 32;
    if ((threadIdx.x & 31) == 0) warp_flags[warp] = flags;
    __syncthreads();
    // The first thread of each tile's first warp joins the two halves.
    if (inside && voxel == 0) {
      list.activity[id] = warp_flags[warp].x | warp_flags[warp + 1].x;
      list.border[id] = warp_flags[warp].y | warp_flags[warp + 1].y;
    }
    __syncthreads();  // before the next tiles' flags overwrite these
  }
  if constexpr (kLast) {
    for (int step = 16; step > 0; step >>= 1) {
      front_squares += __shfl_xor_sync(kFullMask, front_squares, step);
      front_voxels += __shfl_xor_sync(kFullMask, front_voxels, step);
    }
    if ((threadIdx.x & 31) == 0 && front_voxels) {
      atomicAdd(&list.counters->front_squares, front_squares);
      atomicAdd(&list.counters->front_voxels, front_voxels);
    }
  }
}

template <bool kFirst, bool kKeepBase, bool kLast, bool kReinit = false>
void launch_stage(GpuStlStorage& s, Stage stage, float snap, float reinit_dt = 0.0f) {
  launch<update_stage<kFirst, kKeepBase, kLast, kReinit>>(
      {stride_blocks(uint64_t(s.allocated) * kTileVoxels, kStageBlock), kStageBlock}, s.view(), s.rate.get(), s.base.get(),
      stage, snap, s.reinit_due.get(), reinit_dt);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

// compute_rates for the scheme (its template argument); phi0 and reinit_due with kReinit only.
template <bool kReinit>
void launch_rates(GpuStlStorage& s, Scheme scheme, uint32_t units, const RateParams& p, bool later_stage, float c) {
  const float* phi0 = kReinit ? s.phi0.get() : nullptr;
  const uint32_t* due = kReinit ? s.reinit_due.get() : nullptr;
  if (scheme == Scheme::kWeno5)
    launch<compute_rates<Scheme::kWeno5, kReinit>>({units, kUnit}, s.view(), units, p, later_stage, c, s.rate.get(),
                                                   s.speed_bits.get(), phi0, due);
  else
    launch<compute_rates<Scheme::kUpwind, kReinit>>({units, kUnit}, s.view(), units, p, later_stage, c, s.rate.get(),
                                                    s.speed_bits.get(), phi0, due);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

// A Runge–Kutta scheme's stages (TvdRungeKutta's table): TVD-RK3 with WENO5, else Euler.
struct StagePlan {
  const Stage* stages;
  int count;
};
StagePlan stages_of(Scheme scheme) { return scheme == Scheme::kWeno5 ? StagePlan{kRk3, 3} : StagePlan{kEuler, 1}; }

// Stage k of a step of `count`: the first keeps the base when more follow, the last snaps and
// sets the flags (TvdRungeKutta::step).
template <bool kReinit>
void launch_stage_k(GpuStlStorage& s, int k, int count, Stage stage, float snap, float reinit_dt = 0.0f) {
  const bool last = k == count - 1;
  if (k == 0 && last) launch_stage<true, false, true, kReinit>(s, stage, snap, reinit_dt);
  else if (k == 0) launch_stage<true, true, false, kReinit>(s, stage, snap, reinit_dt);
  else if (last) launch_stage<false, false, true, kReinit>(s, stage, snap, reinit_dt);
  else launch_stage<false, false, false, kReinit>(s, stage, snap, reinit_dt);
}

// Whether the PDE runs after this step: a step was taken (not refused, not frozen), on a
// non-empty list, and it is the list's every-th.
__global__ void begin_reinit(const GpuStlCounters* counters, uint32_t every, uint32_t* due) {
  const GpuStlCounters& c = *counters;
  *due = c.frozen == GpuStlFrozen::kNo && is_finite(c.dt) && c.size > 0 && c.steps % every == 0;
}

// φ0 per active voxel in list order (the Reinitialiser's phi0_ copy).
__global__ void copy_phi0(ListView view, float* phi0, const uint32_t* due) {
  if (!*due) return;
  const ListView list = gpu::live(view);
  const size_t voxels = size_t(list.size) * kTileVoxels;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < voxels; i += size_t(gridDim.x) * blockDim.x)
    phi0[i] = gpu::load_phi(list, size_t(list.active[i / kTileVoxels].id) * kTileVoxels + i % kTileVoxels);
}

}  // namespace

GpuLevelSetEvolution::GpuLevelSetEvolution(GpuEvolutionParams params) : params_(params) {
  if (!(params_.cfl > 0.0f && params_.cfl <= 1.0f)) throw std::invalid_argument("GpuLevelSetEvolution: cfl must be in (0, 1]");
  if (params_.alpha < 0.0f) throw std::invalid_argument("GpuLevelSetEvolution: alpha must be >= 0");
  if (params_.velocity.kind == FieldVelocity::Kind::kEnright && params_.velocity.resolution <= 0)
    throw std::invalid_argument("GpuLevelSetEvolution: the Enright field needs a resolution > 0");
  if (params_.threshold.volume && (params_.brush.sigma > 0.0f || params_.normal_speed != 0.0f))
    throw std::invalid_argument("GpuLevelSetEvolution: a threshold field takes no constant speed or brush beside it");
  require_valid(params_.reinit, "GpuLevelSetEvolution");
}

void GpuLevelSetEvolution::queue(GpuSortedTileList& list, float t, bool device_time, float max_dt) {
  GpuStlStorage& s = list.storage();
  const auto [stages, count] = stages_of(params_.scheme);
  s.allocate_rates(count > 1);
  const uint32_t units = std::min(std::max(s.allocated, 1u), kMaxComputeUnits);
  const float snap = s.gamma - kDefaultBandSnap;
  const RateParams p{0.0f, params_.normal_speed, params_.threshold, params_.brush, params_.extend_normal_speed,
                     params_.effective_normal_cfl, params_.velocity, params_.alpha, params_.rescaling_speed,
                     params_.rescaling_weight, std::sqrt(3.0f)};
  launch<begin_step>({1, 1}, s.counters.get(), s.speed_bits.get(), t, device_time);
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  for (int k = 0; k < count; ++k) {
    launch_rates<false>(s, params_.scheme, units, p, k > 0, stages[k].c);
    if (k == 0) {
      launch<choose_dt>({1, 1}, s.counters.get(), s.speed_bits.get(), params_.cfl, max_dt, device_time);
      MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
    }
    launch_stage_k<false>(s, k, count, stages[k], snap);
  }
  if (params_.reinit.iterations > 0) queue_reinitialisation(s, units, snap);
  list.queue_manage();
}

// The Reinitialiser's iterations on the device, each a Runge–Kutta step of pseudo-time
// cfl / √3 (the CPU's dt for its constant speed √3), gated on the device by begin_reinit.
void GpuLevelSetEvolution::queue_reinitialisation(GpuStlStorage& s, uint32_t units, float snap) {
  const ReinitParams& r = params_.reinit;
  s.allocate_rates(true, true);
  launch<begin_reinit>({1, 1}, s.counters.get(), uint32_t(r.every), s.reinit_due.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  launch<copy_phi0>({stride_blocks(uint64_t(s.allocated) * kTileVoxels, kStageBlock), kStageBlock}, s.view(), s.phi0.get(),
                    s.reinit_due.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  const float dt = r.cfl / std::sqrt(3.0f);
  const auto [stages, count] = stages_of(r.scheme);
  for (int iteration = 0; iteration < r.iterations; ++iteration)
    for (int k = 0; k < count; ++k) {
      launch_rates<true>(s, r.scheme, units, RateParams{}, false, 0.0f);  // the rate reads no field
      launch_stage_k<true>(s, k, count, stages[k], snap, dt);
    }
}

float GpuLevelSetEvolution::step(GpuSortedTileList& list, float t, float max_dt) {
  queue(list, t, /*device_time=*/false, max_dt);
  const GpuStlCounters c = list.counters();  // the step's one host wait: dt and status
  last_ = c;
  if (!std::isfinite(c.dt)) throw std::invalid_argument("TvdRungeKutta::step: nothing moves and no max_dt bounds the step");
  return c.dt;
}

void GpuLevelSetEvolution::queue_step(GpuSortedTileList& list, float max_dt) {
  queue(list, 0.0f, /*device_time=*/true, max_dt);
}

}  // namespace meniscus::sim::levelset
