#pragma once
// The vertices of one sample slice's crossed edges, in edge-id order (by lower sample, x
// fastest, then axis x, y, z): the position interpolated linearly along the edge, the normal
// from the central-difference gradients at its ends interpolated the same way.
//
// The edges are listed first and their vertices made in a second loop, eight at a time with
// AVX2 and sixteen with AVX-512 where the CPU has them: a surface crosses a row only a few
// times, so a per-row loop would mostly mispredict branches and wait on divides. The
// arithmetic is the same operation for operation (no fused multiply-adds), so every vertex is
// bit-identical on every path.
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "engine/core/uninitialized_vector.h"
#include "sim/histopyramid/mc_kernels.h"
#include "sim/histopyramid/sample_masks.h"
#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

// Crossed edges by lower sample (x, y) of the slice and axis.
struct CrossedEdges {
  UninitializedVector<uint32_t> x, y, axis;
  size_t size = 0;
};

// Lists the crossed edges of slice z and sets first_vertex for its rows, numbering on from
// `first`, and writes each crossed edge's number to `slots` (the vertex on the edge from
// sample (x, y) along `axis` at 4 (y dims.x + x) + axis, as CellSliceWriter reads them); needs
// the bits of slice z + 1 (z-edges). Returns the number after the slice.
uint64_t list_slice_edges(SampleMasks& masks, uint32_t z, uint64_t first, CrossedEdges& edges, uint32_t* slots);

struct VertexSpans {
  glm::vec3* positions;
  glm::vec3* normals;
  uint64_t* edge_ids;  // each vertex's edge id (MarchingCubes::edge_id), or null
};

// The vertices of `edges` (of slice z), written from out[0] on.
void make_slice_vertices(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges, VertexSpans out,
                         McKernels kernels);

}  // namespace meniscus::sim
