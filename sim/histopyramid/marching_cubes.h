#pragma once
// Marching cubes on the CPU: the reference the Vulkan and CUDA HistoPyramid extractions are
// checked against, and a fast extractor in its own right (`meniscus mesh`, the benchmarks).
//
// Where the GPU versions compact and expand through a HistoPyramid (Dyken et al. §4), a CPU
// thread walks its cells in order anyway, so the compaction here is a running count: each
// thread takes a block of z-slices and streams through it once, turning samples into inside
// bits (sample_masks.h), making the vertices of the crossed edges while the samples are in
// cache (slice_vertices.h) and writing the triangles of its cells (cell_slices.h), all numbered
// from 0 within the block. A scan over the blocks places them; the second pass copies each
// block into the mesh, offsetting its vertex numbers, and writes the one cell slice per block
// that reaches into the next block's vertices. The output is the same as the pyramid's:
// vertices in edge-id order, triangles in cell order.
//
// Tie rule: a sample equal to the iso value counts as inside (f >= iso).
#include <cstdint>
#include <vector>

#include "engine/core/uninitialized_vector.h"
#include "sim/histopyramid/cell_slices.h"
#include "sim/histopyramid/indexed_mesh.h"
#include "sim/histopyramid/mc_kernels.h"
#include "sim/histopyramid/sample_masks.h"
#include "sim/histopyramid/slice_vertices.h"
#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

// The Vulkan extraction's cells (x, y, z), laid out as z-slices tiled over a square 2D base,
// as the paper's Flat 3D layout: cell -> (u, v) = (tile_x * cx + x, tile_y * cy + y), tile = tile_y * tiles_per_row + tile_x.
struct FlatLayout {
  glm::uvec3 cells{0};
  uint32_t tiles_per_row = 0;
  uint32_t side = 0;  // power of two

  static FlatLayout for_cells(glm::uvec3 cells);
  // Base index of a cell, and back (false for padding).
  uint32_t element_of(uint32_t x, uint32_t y, uint32_t z) const;
  bool cell_of(uint32_t element, glm::uvec3& cell) const;
};

struct McStats {
  uint64_t cells = 0;
  uint64_t triangles = 0;
  // First pass (inside bits, each block's vertices and the triangles it can number on its own),
  // the scan and allocation between the passes, and the second pass (copies into the mesh with
  // the blocks' offsets, and each block's last cell slice).
  double classify_ms = 0, scan_ms = 0, extract_ms = 0;
};

class MarchingCubes {
 public:
  explicit MarchingCubes(McKernels kernels = McKernels::kFastest) : kernels_(kernels) {}

  // Throws InputError naming the volume when `iso` is outside its value range or non-finite.
  // `vertex_edges`, when given, receives each mesh vertex's edge id (see edge_id). An object
  // keeps its masks and per-block vertices between calls, so re-extracting (a moving iso value,
  // an evolving level set) does not pay for fresh pages every time.
  IndexedMesh extract(const Volume& volume, float iso, McStats* stats = nullptr,
                      std::vector<uint64_t>* vertex_edges = nullptr);

  // The case index of a cell (bit c set when corner c is inside).
  static uint8_t cell_case(const Volume& volume, float iso, uint32_t x, uint32_t y, uint32_t z);
  // Global id of a cell edge: 3 * (index of its lower corner) + axis. Equal for the cells that
  // share the edge, so it identifies the mesh vertex on it.
  static uint64_t edge_id(const Volume& volume, uint32_t x, uint32_t y, uint32_t z, int edge);

 private:
  // A run of z-slices one thread takes through the first pass: its vertices and the corners
  // of its cell slices but the last, numbered from 0 within it, until the scan places them.
  struct SliceBlock {
    explicit SliceBlock(McKernels kernels) : triangle_writer(kernels) {}
    uint32_t z_begin = 0, z_end = 0;
    UninitializedVector<glm::vec3> positions, normals;
    UninitializedVector<uint64_t> edge_ids;
    UninitializedVector<uint32_t> corners_out;
    uint64_t vertices = 0, corners = 0;
    uint64_t boundary_corners = 0;  // of the last cell slice, written in the second pass
    uint64_t first_vertex = 0, first_corner = 0;  // set by the scan
    SampleCensus census;
    CrossedEdges crossed;  // of the slice in hand
    CellSliceWriter triangle_writer;
  };
  void number_slice(const Volume& volume, float iso, SliceBlock& block, uint32_t z, bool with_edges);
  void first_pass(const Volume& volume, float iso, SliceBlock& block, bool with_edges);
  void second_pass(SliceBlock& block, const SliceBlock* next, IndexedMesh& mesh, std::vector<uint64_t>* vertex_edges);

  McKernels kernels_;
  SampleMasks masks_;
  std::vector<SliceBlock> blocks_;
};

}  // namespace meniscus::sim
