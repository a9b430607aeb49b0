#pragma once
// Marching cubes as HistoPyramid stream compaction and expansion (Dyken et al. §4): classify
// every cell (its case fixes how many vertices it emits), build the pyramid over the cells,
// then turn each output key index into one vertex by traversal. The CPU reference; GPU
// versions are checked against it. The Vulkan version lays cells out in the paper's flat 3D
// layout (FlatLayout); this one and the CUDA one use the 1D chunk/layer layout of §4.3
// (chunked_layout.h), whose chunks are consecutive cells of a row.
//
// Tie rule: a sample equal to the iso value counts as inside (f >= iso).
#include <array>
#include <cstdint>
#include <vector>

#include "sim/histopyramid/chunked_pyramid.h"
#include "sim/histopyramid/indexed_mesh.h"
#include "sim/histopyramid/sample_masks.h"
#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

// Cells (x, y, z) laid out as z-slices tiled over a square 2D base, as the paper's Flat 3D
// layout: cell -> (u, v) = (tile_x * cx + x, tile_y * cy + y), tile = tile_y * tiles_per_row + tile_x.
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
  double classify_ms = 0, build_ms = 0, extract_ms = 0;
};

class MarchingCubes {
 public:
  // Throws InputError naming the volume when `iso` is outside its value range or non-finite.
  // `vertex_edges`, when given, receives each mesh vertex's edge id (see edge_id). An object
  // keeps its pyramid and scratch memory between calls, so re-extracting (a moving iso value,
  // an evolving level set) does not pay for fresh pages every time.
  IndexedMesh extract(const Volume& volume, float iso, McStats* stats = nullptr,
                      std::vector<uint64_t>* vertex_edges = nullptr);

  // The case index of a cell (bit c set when corner c is inside).
  static uint8_t cell_case(const Volume& volume, float iso, uint32_t x, uint32_t y, uint32_t z);
  // Global id of a cell edge: 3 * (index of its lower corner) + axis. Equal for the cells that
  // share the edge, so it identifies the mesh vertex on it.
  static uint64_t edge_id(const Volume& volume, uint32_t x, uint32_t y, uint32_t z, int edge);

 private:
  uint64_t classify_cells(const std::array<uint8_t, 256>& counts, uint32_t z_begin, uint32_t z_end);
  void make_vertices(const Volume& volume, float iso, uint32_t z_begin, uint32_t z_end, IndexedMesh& mesh,
                     std::vector<uint64_t>* vertex_edges) const;
  void write_corners(IndexedMesh& mesh) const;

  ChunkedHistoPyramid pyramid_;
  SampleMasks masks_;
  uint32_t row_stride_ = 0;  // base elements per cell row (chunked_row_stride)
  size_t last_vertices_ = 0;  // reserved up front next time
};

// Base elements per cell row in the chunked layout (see chunked_layout.h).
inline uint32_t chunked_row_stride(uint32_t cells_x) { return chunked::row_stride(cells_x); }

}  // namespace meniscus::sim
