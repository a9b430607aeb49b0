#include "sim/histopyramid/marching_cubes.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "engine/core/error.h"
#include "sim/histopyramid/mc_tables.h"

namespace meniscus::sim {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

glm::uvec3 corner_offset(int c) { return {uint32_t(c & 1), uint32_t((c >> 1) & 1), uint32_t((c >> 2) & 1)}; }

// Central differences inside, one-sided at the border; in volume index units.
glm::vec3 gradient(const Volume& v, glm::uvec3 p) {
  glm::vec3 g;
  for (int axis = 0; axis < 3; ++axis) {
    glm::uvec3 lo = p, hi = p;
    if (p[axis] > 0) --lo[axis];
    if (p[axis] + 1 < v.dims[axis]) ++hi[axis];
    g[axis] = (v.at(hi.x, hi.y, hi.z) - v.at(lo.x, lo.y, lo.z)) / float(hi[axis] - lo[axis]) / v.spacing[axis];
  }
  return g;
}

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
    const glm::uvec3 p = glm::uvec3(x, y, z) + corner_offset(c);
    if (v.at(p.x, p.y, p.z) >= iso) index |= uint8_t(1 << c);
  }
  return index;
}

uint64_t MarchingCubes::edge_id(const Volume& v, uint32_t x, uint32_t y, uint32_t z, int edge) {
  const mc::Edge& e = mc::edges()[edge];
  const glm::uvec3 p = glm::uvec3(x, y, z) + corner_offset(e.a);
  return uint64_t(v.index(p.x, p.y, p.z)) * 3 + e.axis;
}

IndexedMesh MarchingCubes::extract(const Volume& volume, float iso, McStats* stats,
                                   std::vector<uint64_t>* vertex_edges) const {
  const glm::vec2 range = volume.range();
  if (!std::isfinite(iso) || iso < range.x || iso > range.y) {
    std::ostringstream message;
    message << volume.source << ": iso value " << iso << " is outside the data range [" << range.x << ", " << range.y << "]";
    throw InputError(message.str());
  }
  if (volume.cell_count() == 0) throw InputError(volume.source + ": needs at least 2 samples along each axis");
  const glm::uvec3 cells = volume.dims - 1u;
  const FlatLayout layout = FlatLayout::for_cells(cells);
  const auto& cases = mc::cases();

  // 1. classify: base counts = vertices each cell emits.
  auto t0 = Clock::now();
  std::vector<uint32_t> counts(size_t(layout.side) * layout.side, 0);
  std::vector<uint8_t> case_of(volume.cell_count());
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, cells.z), [&](const tbb::blocked_range<uint32_t>& zs) {
    for (uint32_t z = zs.begin(); z != zs.end(); ++z)
      for (uint32_t y = 0; y < cells.y; ++y)
        for (uint32_t x = 0; x < cells.x; ++x) {
          const uint8_t c = cell_case(volume, iso, x, y, z);
          case_of[(size_t(z) * cells.y + y) * cells.x + x] = c;
          counts[layout.element_of(x, y, z)] = 3u * cases[c].triangles;
        }
  });
  const double classify_ms = ms_since(t0);

  // 2. build.
  t0 = Clock::now();
  HistoPyramid pyramid;
  pyramid.build(counts, layout.side);
  const double build_ms = ms_since(t0);

  // 3. extract: one traversal per output vertex gives its cell and edge.
  t0 = Clock::now();
  const uint64_t total = pyramid.total();
  std::vector<uint64_t> vertex_edge(total);
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, total), [&](const tbb::blocked_range<uint64_t>& keys) {
    for (uint64_t k = keys.begin(); k != keys.end(); ++k) {
      const HistoPyramid::Hit hit = pyramid.traverse(k);
      glm::uvec3 cell;
      layout.cell_of(hit.element, cell);
      const uint8_t c = case_of[(size_t(cell.z) * cells.y + cell.y) * cells.x + cell.x];
      vertex_edge[k] = edge_id(volume, cell.x, cell.y, cell.z, cases[c].edges[hit.local]);
    }
  });
  // Shared vertices: one per distinct crossed edge.
  std::vector<uint64_t> unique_edges = vertex_edge;
  tbb::parallel_sort(unique_edges.begin(), unique_edges.end());
  unique_edges.erase(std::unique(unique_edges.begin(), unique_edges.end()), unique_edges.end());

  IndexedMesh mesh;
  mesh.positions.resize(unique_edges.size());
  mesh.normals.resize(unique_edges.size());
  tbb::parallel_for(tbb::blocked_range<size_t>(0, unique_edges.size()), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t i = r.begin(); i != r.end(); ++i) {
      const uint64_t id = unique_edges[i];
      const uint32_t axis = uint32_t(id % 3);
      const uint64_t corner = id / 3;
      const glm::uvec3 a{uint32_t(corner % volume.dims.x), uint32_t(corner / volume.dims.x % volume.dims.y),
                         uint32_t(corner / (uint64_t(volume.dims.x) * volume.dims.y))};
      glm::uvec3 b = a;
      ++b[axis];
      const float fa = volume.at(a.x, a.y, a.z), fb = volume.at(b.x, b.y, b.z);
      const float t = (iso - fa) / (fb - fa);  // fa != fb: one is inside, the other outside
      const glm::vec3 pa(a), pb(b);
      mesh.positions[i] = volume.origin + volume.spacing * (pa + t * (pb - pa));
      const glm::vec3 g = glm::mix(gradient(volume, a), gradient(volume, b), t);
      const float length = glm::length(g);
      // Inside is f >= iso, so the outward normal points down the gradient.
      mesh.normals[i] = length > 0 ? -g / length : glm::vec3(0, 0, 1);
    }
  });
  mesh.triangles.resize(total / 3);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, mesh.triangles.size()), [&](const tbb::blocked_range<size_t>& r) {
    for (size_t t = r.begin(); t != r.end(); ++t)
      for (int k = 0; k < 3; ++k)
        mesh.triangles[t][k] = uint32_t(std::lower_bound(unique_edges.begin(), unique_edges.end(), vertex_edge[t * 3 + k]) -
                                        unique_edges.begin());
  });
  if (vertex_edges) *vertex_edges = unique_edges;
  if (stats) *stats = {volume.cell_count(), mesh.triangles.size(), classify_ms, build_ms, ms_since(t0)};
  return mesh;
}

}  // namespace meniscus::sim
