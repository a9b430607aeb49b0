// The CUDA marching cubes (see marching_cubes_cuda.h). Every kernel reads the same tables the
// CPU uses (mc_tables.h, copied to the device once) and the same layout (chunked_layout.h), so
// the CPU ≡ CUDA test can compare triangle for triangle.
#include "sim/histopyramid/marching_cubes_cuda.h"

#include <cuda_runtime.h>

#include <array>
#include <cmath>
#include <sstream>
#include <string>

#include "engine/core/error.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "sim/histopyramid/chunked_layout.h"
#include "sim/histopyramid/mc_tables.h"

namespace meniscus::sim {
namespace {

constexpr int kBlock = 256;
constexpr uint32_t kCornerSlots = mc::kMaxTriangles * 3;

// Tables in global memory (read through the read-only cache): threads of a warp look up
// different cases, which constant memory would serialise.
struct Tables {
  uint8_t counts[256];                // vertices per case
  uint8_t edges[256][kCornerSlots];   // edge of each output corner
  uint8_t edge_corner[12];            // the edge's lower corner (bit 0 x, 1 y, 2 z)
  uint8_t edge_axis[12];
};

struct Grid {
  uint32_t nx, ny, nz;  // samples
  uint32_t cx, cy;      // cells along x and y
  uint32_t shift;       // log2 of the row stride
  uint64_t base;        // base elements: stride * cells.y * cells.z (a multiple of 64)
};

struct Levels {
  const void* level[chunked::kMaxLevels];
  uint32_t count;
};

__device__ uint32_t cell_case(const float* __restrict__ f, const Grid& g, float iso, uint32_t x, uint32_t y,
                              uint32_t z) {
  const size_t line = g.nx, plane = size_t(g.nx) * g.ny, p = size_t(z) * plane + size_t(y) * line + x;
  // Bit c is corner (c & 1, c >> 1 & 1, c >> 2 & 1); inside is f >= iso (NaN: outside).
  return uint32_t(__ldg(f + p) >= iso) | uint32_t(__ldg(f + p + 1) >= iso) << 1 |
         uint32_t(__ldg(f + p + line) >= iso) << 2 | uint32_t(__ldg(f + p + line + 1) >= iso) << 3 |
         uint32_t(__ldg(f + p + plane) >= iso) << 4 | uint32_t(__ldg(f + p + plane + 1) >= iso) << 5 |
         uint32_t(__ldg(f + p + plane + line) >= iso) << 6 | uint32_t(__ldg(f + p + plane + line + 1) >= iso) << 7;
}

// One thread per base element: its cell's vertex count into the 8-bit base, and by shuffles
// the sums of 4 (8-bit level 1) and 16 (16-bit level 2) consecutive elements. Blocks start at
// multiples of 256 and the base is a multiple of 64, so every warp is whole and every chunk of
// 16 lies in one warp; threads past the base count 0 and write nothing.
__global__ void classify(const float* __restrict__ f, Grid g, float iso, const Tables* __restrict__ tables,
                         uint8_t* __restrict__ base, uint8_t* __restrict__ level1, uint16_t* __restrict__ level2) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint32_t count = 0;
  if (i < g.base) {
    const uint32_t x = uint32_t(i & ((uint64_t(1) << g.shift) - 1)), cell_row = uint32_t(i >> g.shift);
    if (x < g.cx) {
      const uint32_t z = cell_row / g.cy, y = cell_row - z * g.cy;
      count = tables->counts[cell_case(f, g, iso, x, y, z)];
    }
    base[i] = uint8_t(count);
  }
  uint32_t four = count + __shfl_down_sync(0xFFFFFFFFu, count, 1);
  four += __shfl_down_sync(0xFFFFFFFFu, four, 2);
  uint32_t sixteen = four + __shfl_down_sync(0xFFFFFFFFu, four, 4);
  sixteen += __shfl_down_sync(0xFFFFFFFFu, sixteen, 8);
  if (i < g.base) {
    if ((i & 3) == 0) level1[i >> 2] = uint8_t(four);
    if ((i & 15) == 0) level2[i >> 4] = uint16_t(sixteen);
  }
}

// A chunk of four as one aligned vector load (levels are padded to whole chunks).
__device__ uint4 load_chunk(const void* level, uint32_t width, uint64_t chunk) {
  switch (width) {
    case 1: {
      const uchar4 v = __ldg(static_cast<const uchar4*>(level) + chunk);
      return make_uint4(v.x, v.y, v.z, v.w);
    }
    case 2: {
      const ushort4 v = __ldg(static_cast<const ushort4*>(level) + chunk);
      return make_uint4(v.x, v.y, v.z, v.w);
    }
    default: return __ldg(static_cast<const uint4*>(level) + chunk);
  }
}

// One level from the one below: element i sums chunk i. A 32-bit sum that wraps sets
// `overflow` (the host then refuses the volume, as the CPU path does past 2^32 outputs).
template <typename Out>
__global__ void reduce_level(const void* below, uint32_t below_width, Out* out, uint64_t count, uint32_t* overflow) {
  const uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const uint4 c = load_chunk(below, below_width, i);
  const uint64_t sum = uint64_t(c.x) + c.y + c.z + c.w;
  if (sum > 0xFFFFFFFFull) atomicOr(overflow, 1u);
  out[i] = Out(sum);
}

// Central differences inside, one-sided at the border, per unit of length, rounded as the
// CPU's (marching_cubes.cpp): inside samples by 0.5 / spacing, the border by span and spacing.
__device__ float3 gradient(const float* __restrict__ f, const Grid& g, float3 spacing, uint32_t x, uint32_t y,
                           uint32_t z) {
  const size_t line = g.nx, plane = size_t(g.nx) * g.ny, p = size_t(z) * plane + size_t(y) * line + x;
  const uint32_t coordinate[3] = {x, y, z}, size[3] = {g.nx, g.ny, g.nz};
  const size_t step[3] = {1, line, plane};
  const float space[3] = {spacing.x, spacing.y, spacing.z};
  const bool inside = x > 0 && y > 0 && z > 0 && x + 1 < g.nx && y + 1 < g.ny && z + 1 < g.nz;
  float out[3];
  for (int axis = 0; axis < 3; ++axis) {
    const size_t lo = coordinate[axis] > 0 ? p - step[axis] : p;
    const size_t hi = coordinate[axis] + 1 < size[axis] ? p + step[axis] : p;
    const float difference = __ldg(f + hi) - __ldg(f + lo);
    if (inside) {
      out[axis] = difference * (0.5f / space[axis]);
    } else {
      const float span = float((coordinate[axis] + 1 < size[axis]) + (coordinate[axis] > 0));
      out[axis] = difference / span / space[axis];
    }
  }
  return make_float3(out[0], out[1], out[2]);
}

// One thread per output vertex: the top-down traversal finds the base element (cell) and the
// local index (which of its corners); the cell's case says which edge that corner lies on.
__global__ void extract_vertices(const float* __restrict__ f, Grid g, float iso, Levels levels, const Tables* __restrict__ tables,
                        uint32_t total, float3 origin, float3 spacing, float3* __restrict__ positions,
                        float3* __restrict__ normals, uint32_t* __restrict__ edge_ids) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= total) return;
  uint32_t key = k;
  uint64_t i = 0;
  for (uint32_t level = levels.count - 1; level > 0; --level) {
    const uint4 c = load_chunk(levels.level[level - 1], chunked::level_width(level - 1), i);
    uint64_t child = 4 * i;
    // The four counts are consecutive key ranges; find the one holding `key`.
    if (key >= c.x) {
      key -= c.x;
      ++child;
      if (key >= c.y) {
        key -= c.y;
        ++child;
        if (key >= c.z) {
          key -= c.z;
          ++child;
        }
      }
    }
    i = child;
  }
  const uint32_t x = uint32_t(i & ((uint64_t(1) << g.shift) - 1)), cell_row = uint32_t(i >> g.shift);
  const uint32_t z = cell_row / g.cy, y = cell_row - z * g.cy;
  const uint32_t edge = tables->edges[cell_case(f, g, iso, x, y, z)][key];
  const uint32_t corner = tables->edge_corner[edge], axis = tables->edge_axis[edge];
  const uint32_t ax = x + (corner & 1), ay = y + (corner >> 1 & 1), az = z + (corner >> 2 & 1);
  const uint32_t ex = ax + (axis == 0), ey = ay + (axis == 1), ez = az + (axis == 2);
  const size_t line = g.nx, plane = size_t(g.nx) * g.ny;
  const size_t a = size_t(az) * plane + size_t(ay) * line + ax, e = size_t(ez) * plane + size_t(ey) * line + ex;
  const float fa = __ldg(f + a), fe = __ldg(f + e);
  const float t = (iso - fa) / (fe - fa);  // fa != fe: one is inside, the other outside
  positions[k] = make_float3(origin.x + spacing.x * (float(ax) + t * float(ex - ax)),
                             origin.y + spacing.y * (float(ay) + t * float(ey - ay)),
                             origin.z + spacing.z * (float(az) + t * float(ez - az)));
  const float3 ga = gradient(f, g, spacing, ax, ay, az), ge = gradient(f, g, spacing, ex, ey, ez);
  // glm::mix(ga, ge, t) and the CPU's normalisation, operation for operation: where the
  // gradient nearly cancels, another rounding would turn the normal another way.
  const float u = 1.0f - t;
  const float3 n = make_float3(ga.x * u + ge.x * t, ga.y * u + ge.y * t, ga.z * u + ge.z * t);
  const float length_squared = n.x * n.x + n.y * n.y + n.z * n.z;
  const float scale = -1.0f / sqrtf(length_squared);
  // Inside is f >= iso, so the outward normal points down the gradient.
  normals[k] = length_squared > 0 ? make_float3(n.x * scale, n.y * scale, n.z * scale) : make_float3(0, 0, 1);
  edge_ids[k] = uint32_t(a * 3 + axis);
}

uint32_t blocks_for(uint64_t threads) { return uint32_t((threads + kBlock - 1) / kBlock); }

}  // namespace

bool cuda_marching_cubes_available(std::string* why) { return sim::cuda_device_answers(why); }

struct CudaMarchingCubes::Impl {
  std::string source, device;
  Grid grid{};
  glm::vec3 origin{0}, spacing{1};
  glm::vec2 range{0};
  uint32_t level_count = 0;
  uint64_t level_size[chunked::kMaxLevels] = {};
  DeviceArray<float> samples;
  DeviceArray<uint8_t> levels[chunked::kMaxLevels];
  DeviceArray<Tables> tables;
  DeviceArray<uint32_t> flag;
  DeviceArray<float3> positions, normals;
  DeviceArray<uint32_t> edge_ids;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;

  ~Impl() {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }
};

CudaMarchingCubes::CudaMarchingCubes(const Volume& volume) : impl_(std::make_unique<Impl>()) {
  std::string why;
  if (!cuda_marching_cubes_available(&why)) throw DeviceError("marching cubes: " + why);
  if (volume.cell_count() == 0) throw InputError(volume.source + ": needs at least 2 samples along each axis");
  if (uint64_t(volume.dims.x) * volume.dims.y * volume.dims.z * 3 >= (uint64_t(1) << 32))
    throw InputError(volume.source + ": too large for 32-bit edge ids (over 1.4 G samples)");
  Impl& m = *impl_;
  m.source = volume.source;
  m.origin = volume.origin;
  m.spacing = volume.spacing;
  m.range = volume.range();
  const glm::uvec3 cells = volume.dims - 1u;
  const uint32_t stride = chunked::row_stride(cells.x);
  m.grid = {volume.dims.x, volume.dims.y, volume.dims.z, cells.x, cells.y, uint32_t(__builtin_ctz(stride)),
            uint64_t(stride) * cells.y * cells.z};
  m.level_count = chunked::level_count(m.grid.base);
  if (m.level_count > chunked::kMaxLevels) throw InputError(volume.source + ": too large for one HistoPyramid");

  int ordinal = 0;
  cudaDeviceProp properties{};
  MENISCUS_SIM_CUDA_CHECK(cudaGetDevice(&ordinal));
  MENISCUS_SIM_CUDA_CHECK(cudaGetDeviceProperties(&properties, ordinal));
  m.device = properties.name;
  MENISCUS_SIM_CUDA_CHECK(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  MENISCUS_SIM_CUDA_CHECK(cudaEventCreate(&m.start));
  MENISCUS_SIM_CUDA_CHECK(cudaEventCreate(&m.stop));

  m.samples.reserve(volume.values.size());
  MENISCUS_SIM_CUDA_CHECK(
      cudaMemcpy(m.samples.get(), volume.values.data(), volume.values.size() * sizeof(float), cudaMemcpyHostToDevice));
  // Levels padded to whole chunks; the padding is zeroed once and never written.
  uint64_t count = m.grid.base;
  for (uint32_t l = 0; l < m.level_count; ++l) {
    m.level_size[l] = count;
    const size_t bytes = size_t(chunked::parent_count(count) * 4 * chunked::level_width(l));
    m.levels[l].reserve(bytes);
    MENISCUS_SIM_CUDA_CHECK(cudaMemset(m.levels[l].get(), 0, bytes));
    count = chunked::parent_count(count);
  }

  Tables host{};
  for (int c = 0; c < 256; ++c) {
    const mc::Case& entry = mc::cases()[c];
    host.counts[c] = uint8_t(3 * entry.triangles);
    for (int v = 0; v < 3 * entry.triangles; ++v) host.edges[c][v] = entry.edges[v];
  }
  for (int e = 0; e < 12; ++e) {
    host.edge_corner[e] = mc::edges()[e].a;
    host.edge_axis[e] = mc::edges()[e].axis;
  }
  m.tables.reserve(1);
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(m.tables.get(), &host, sizeof(Tables), cudaMemcpyHostToDevice));
  m.flag.reserve(1);
}

CudaMarchingCubes::~CudaMarchingCubes() = default;

const std::string& CudaMarchingCubes::device_name() const { return impl_->device; }

CudaSoup CudaMarchingCubes::extract(float iso, bool read_back) {
  Impl& m = *impl_;
  if (!std::isfinite(iso)) throw InputError(m.source + ": iso value is not finite");
  if (iso < m.range.x || iso > m.range.y) {
    std::ostringstream message;
    message << m.source << ": iso value " << iso << " is outside the data range [" << m.range.x << ", " << m.range.y << "]";
    throw InputError(message.str());
  }
  MENISCUS_SIM_CUDA_CHECK(cudaEventRecord(m.start, m.stream));
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(m.flag.get(), 0, sizeof(uint32_t), m.stream));
  launch<classify>({blocks_for(m.grid.base), kBlock, 0, m.stream}, m.samples.get(), m.grid, iso, m.tables.get(),
                   m.levels[0].get(), m.levels[1].get(),
                   reinterpret_cast<uint16_t*>(m.levels[2].get()));
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  for (uint32_t l = 3; l < m.level_count; ++l) {
    const uint32_t below_width = chunked::level_width(l - 1);
    if (chunked::level_width(l) == 2)
      launch<reduce_level<uint16_t>>({blocks_for(m.level_size[l]), kBlock, 0, m.stream},
          m.levels[l - 1].get(), below_width, reinterpret_cast<uint16_t*>(m.levels[l].get()), m.level_size[l], m.flag.get());
    else
      launch<reduce_level<uint32_t>>({blocks_for(m.level_size[l]), kBlock, 0, m.stream},
          m.levels[l - 1].get(), below_width, reinterpret_cast<uint32_t*>(m.levels[l].get()), m.level_size[l], m.flag.get());
    MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  }
  // The top (at least level 3: 16 or 32 bits) sizes the output; the flag says it is exact.
  uint32_t readback[2] = {0, 0};
  const uint32_t top = m.level_count - 1;
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(&readback[0], m.levels[top].get(), chunked::level_width(top),
                                          cudaMemcpyDeviceToHost, m.stream));
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(&readback[1], m.flag.get(), sizeof(uint32_t), cudaMemcpyDeviceToHost, m.stream));
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(m.stream));
  if (readback[1]) throw InputError(m.source + ": over 2^32 triangle corners");
  const uint32_t total = readback[0];

  if (total > 0) {
    m.positions.reserve(total);
    m.normals.reserve(total);
    m.edge_ids.reserve(total);
    Levels levels{};
    levels.count = m.level_count;
    for (uint32_t l = 0; l < m.level_count; ++l) levels.level[l] = m.levels[l].get();
    launch<extract_vertices>({blocks_for(total), kBlock, 0, m.stream},
        m.samples.get(), m.grid, iso, levels, m.tables.get(), total, make_float3(m.origin.x, m.origin.y, m.origin.z),
        make_float3(m.spacing.x, m.spacing.y, m.spacing.z), m.positions.get(), m.normals.get(), m.edge_ids.get());
    MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  }
  MENISCUS_SIM_CUDA_CHECK(cudaEventRecord(m.stop, m.stream));
  MENISCUS_SIM_CUDA_CHECK(cudaEventSynchronize(m.stop));
  float ms = 0;
  MENISCUS_SIM_CUDA_CHECK(cudaEventElapsedTime(&ms, m.start, m.stop));

  CudaSoup soup;
  soup.vertices = total;
  soup.gpu_ms = ms;
  if (read_back && total > 0) {
    static_assert(sizeof(float3) == sizeof(glm::vec3), "float3 and glm::vec3 share a layout");
    soup.positions.resize(total);
    soup.normals.resize(total);
    MENISCUS_SIM_CUDA_CHECK(
        cudaMemcpy(soup.positions.data(), m.positions.get(), total * sizeof(float3), cudaMemcpyDeviceToHost));
    MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(soup.normals.data(), m.normals.get(), total * sizeof(float3), cudaMemcpyDeviceToHost));
    const std::vector<uint32_t> ids = m.edge_ids.download(total);
    soup.edges.assign(ids.begin(), ids.end());
  }
  return soup;
}

}  // namespace meniscus::sim
