#include "sim/histopyramid/marching_cubes.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/histopyramid/cell_slices.h"
#include "sim/histopyramid/mc_tables.h"
#include "sim/histopyramid/slice_vertices.h"

namespace meniscus::sim {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

}  // namespace

FlatLayout FlatLayout::for_cells(glm::uvec3 cells) {
  FlatLayout layout;
  layout.cells = cells;
  // Smallest power-of-two square holding all z-slices as tiles.
  uint32_t side = 2;
  while (true) {
    const uint64_t per_row = side / std::max(cells.x, 1u), rows = side / std::max(cells.y, 1u);
    if (per_row > 0 && rows > 0 && per_row * rows >= cells.z) {
      layout.tiles_per_row = static_cast<uint32_t>(per_row);
      break;
    }
    if (side >= (1u << 16)) throw InputError("volume too large for one HistoPyramid (base over 65536^2)");
    side *= 2;
  }
  layout.side = side;
  return layout;
}

uint32_t FlatLayout::element_of(uint32_t x, uint32_t y, uint32_t z) const {
  const uint32_t u = (z % tiles_per_row) * cells.x + x, v = (z / tiles_per_row) * cells.y + y;
  return v * side + u;
}

bool FlatLayout::cell_of(uint32_t element, glm::uvec3& cell) const {
  const uint32_t u = element % side, v = element / side;
  const uint32_t tx = u / cells.x, ty = v / cells.y;
  if (tx >= tiles_per_row) return false;
  const uint32_t z = ty * tiles_per_row + tx;
  if (z >= cells.z) return false;
  cell = {u % cells.x, v % cells.y, z};
  return true;
}

uint8_t MarchingCubes::cell_case(const Volume& v, float iso, uint32_t x, uint32_t y, uint32_t z) {
  uint8_t index = 0;
  for (int c = 0; c < 8; ++c) {
    const glm::uvec3 p = glm::uvec3(x, y, z) + mc::corner_offset(c);
    if (v.at(p.x, p.y, p.z) >= iso) index |= uint8_t(1 << c);
  }
  return index;
}

uint64_t MarchingCubes::edge_id(const Volume& v, uint32_t x, uint32_t y, uint32_t z, int edge) {
  const mc::Edge& e = mc::edges()[edge];
  const glm::uvec3 p = glm::uvec3(x, y, z) + mc::corner_offset(e.a);
  return uint64_t(v.index(p.x, p.y, p.z)) * 3 + e.axis;
}

namespace {

// Blocks per thread in the first pass: enough that a thread whose slices hold more surface does
// not leave the other idle, few enough that the slice each block reads twice stays negligible.
constexpr uint32_t kBlocksPerThread = 4;

}  // namespace

void MarchingCubes::number_slice(const Volume& volume, float iso, SliceBlock& block, uint32_t z, bool with_edges) {
  const uint64_t first = block.vertices;
  // Numbered from 0 within the block, as the first pass's cell slices read them.
  uint32_t* slots = block.triangle_writer.slots_to_fill(masks_, z, 0);
  block.vertices = list_slice_edges(masks_, z, first, block.crossed, slots);
  if (block.vertices >= (uint64_t(1) << 32)) throw InputError(volume.source + ": over 2^32 vertices");
  if (block.positions.size() < block.vertices) {
    const size_t grown = std::max<size_t>(block.vertices, 2 * block.positions.size());
    block.positions.resize(grown);
    block.normals.resize(grown);
  }
  // Grown on its own: an object first used without edge ids has room for vertices but not ids.
  if (with_edges && block.edge_ids.size() < block.vertices) block.edge_ids.resize(block.positions.size());
  make_slice_vertices(volume, iso, z, block.crossed,
                      {block.positions.data() + first, block.normals.data() + first,
                       with_edges ? block.edge_ids.data() + first : nullptr},
                      kernels_);
}

void MarchingCubes::first_pass(const Volume& volume, float iso, SliceBlock& block, bool with_edges) {
  const glm::uvec3 dims = volume.dims;
  const uint32_t begin = block.z_begin, end = block.z_end;
  block.vertices = block.corners = block.boundary_corners = 0;
  block.census = {};
  // Slice `begin`'s bits were made before the blocks started; slice `end`'s are the next
  // block's to make (read here for the z-edges and the last cell slice). Bits run three slices
  // ahead of the triangles and two ahead of the vertices, whose gradients then read samples
  // already in cache.
  auto classify = [&](uint32_t z) {
    if (z < end) block.census |= classify_slice(volume, iso, masks_, z, kernels_);
  };
  classify(begin + 1);
  classify(begin + 2);
  number_slice(volume, iso, block, begin, with_edges);
  const uint32_t own_base[2] = {0, 0};
  for (uint32_t z = begin; z < end; ++z) {
    classify(z + 3);
    if (z + 1 < end) {
      // Cell slice z's vertices are all this block's: write its triangles now, numbered
      // within the block (the copy into the mesh adds the block's first vertex).
      number_slice(volume, iso, block, z + 1, with_edges);
      block.corners += block.triangle_writer.write(masks_, z, own_base, block.corners_out, block.corners);
    } else if (z + 1 < dims.z) {
      // The last cell slice reaches into the next block's first sample slice, whose numbers
      // are not known until the scan: count it now, write it in the second pass.
      block.boundary_corners = count_cell_slice_corners(masks_, z);
    }
  }
}

void MarchingCubes::second_pass(SliceBlock& block, const SliceBlock* next, IndexedMesh& mesh,
                                std::vector<uint64_t>* vertex_edges) {
  std::copy_n(block.positions.data(), block.vertices, mesh.positions.data() + block.first_vertex);
  std::copy_n(block.normals.data(), block.vertices, mesh.normals.data() + block.first_vertex);
  if (vertex_edges) std::copy_n(block.edge_ids.data(), block.vertices, vertex_edges->data() + block.first_vertex);
  auto* corners = reinterpret_cast<uint32_t*>(mesh.triangles.data()) + block.first_corner;
  const uint32_t base = uint32_t(block.first_vertex);
  for (size_t i = 0; i < block.corners; ++i) corners[i] = block.corners_out[i] + base;
  if (block.boundary_corners) {
    const uint32_t slice_base[2] = {base, uint32_t(next->first_vertex)};
    block.triangle_writer.write(masks_, block.z_end - 1, slice_base, block.corners_out, 0);
    std::copy_n(block.corners_out.data(), block.boundary_corners, corners + block.corners);
  }
}

IndexedMesh MarchingCubes::extract(const Volume& volume, float iso, McStats* stats,
                                   std::vector<uint64_t>* vertex_edges) {
  if (!std::isfinite(iso)) throw InputError(volume.source + ": iso value is not finite");
  if (volume.cell_count() == 0) throw InputError(volume.source + ": needs at least 2 samples along each axis");
  const glm::uvec3 dims = volume.dims;
  if (uint64_t(dims.x) * dims.y * dims.z * 3 >= (uint64_t(1) << 32))
    throw InputError(volume.source + ": too large for 32-bit edge ids (over 1.4 G samples)");
  resize_masks(masks_, dims);

  // 1. Blocks of whole sample slices; each makes its first slice's bits up front, so that a
  // block can read the slice after its end without waiting for the block that owns it.
  auto t = Clock::now();
  const uint32_t threads = uint32_t(std::max(1, tbb::this_task_arena::max_concurrency()));
  const uint32_t block_count = std::min(dims.z, threads * kBlocksPerThread);
  blocks_.resize(block_count, SliceBlock(kernels_));
  for (uint32_t b = 0; b < block_count; ++b) {
    blocks_[b].z_begin = uint32_t(uint64_t(dims.z) * b / block_count);
    blocks_[b].z_end = uint32_t(uint64_t(dims.z) * (b + 1) / block_count);
  }
  std::vector<SampleCensus> first_slices(block_count);
  tbb::parallel_for(uint32_t(0), block_count, [&](uint32_t b) {
    first_slices[b] = classify_slice(volume, iso, masks_, blocks_[b].z_begin, kernels_);
  });
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, block_count, 1), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t b = r.begin(); b != r.end(); ++b) first_pass(volume, iso, blocks_[b], vertex_edges != nullptr);
  }, tbb::simple_partitioner());
  SampleCensus census;
  for (uint32_t b = 0; b < block_count; ++b) {
    census |= first_slices[b];
    census |= blocks_[b].census;
  }
  const double classify_ms = ms_since(t);
  if (!census.any_inside || !census.any_outside) {
    // No surface: fine for an iso value inside the data range (ties at the minimum), an error
    // outside it.
    const glm::vec2 range = volume.range();
    if (iso < range.x || iso > range.y) {
      std::ostringstream message;
      message << volume.source << ": iso value " << iso << " is outside the data range [" << range.x << ", " << range.y << "]";
      throw InputError(message.str());
    }
  }

  // 2. Where each block's vertices and triangle corners start.
  t = Clock::now();
  uint64_t vertices = 0, corners = 0;
  for (SliceBlock& block : blocks_) {
    block.first_vertex = vertices;
    block.first_corner = corners;
    vertices += block.vertices;
    corners += block.corners + block.boundary_corners;
  }
  if (vertices >= (uint64_t(1) << 32)) throw InputError(volume.source + ": over 2^32 vertices");
  if (corners >= (uint64_t(1) << 32)) throw InputError(volume.source + ": over 2^32 triangle corners");
  IndexedMesh mesh;
  mesh.positions.resize(vertices);
  mesh.normals.resize(vertices);
  mesh.triangles.resize(corners / 3);
  if (vertex_edges) vertex_edges->resize(vertices);
  const double scan_ms = ms_since(t);

  // 3. Each block's vertices and triangles into place, and its last cell slice written.
  t = Clock::now();
  tbb::parallel_for(uint32_t(0), block_count, [&](uint32_t b) {
    second_pass(blocks_[b], b + 1 < block_count ? &blocks_[b + 1] : nullptr, mesh, vertex_edges);
  });
  const double extract_ms = ms_since(t);
  if (stats) *stats = {volume.cell_count(), mesh.triangles.size(), classify_ms, scan_ms, extract_ms};
  return mesh;
}

}  // namespace meniscus::sim
