#include "sim/histopyramid/marching_cubes.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <array>
#include <chrono>
#include <cmath>
#include <sstream>

#include "engine/core/error.h"
#include "sim/histopyramid/mc_tables.h"
#include "sim/histopyramid/vertex_numbering.h"

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
                                   std::vector<uint64_t>* vertex_edges) {
  if (!std::isfinite(iso)) throw InputError(volume.source + ": iso value is not finite");
  if (volume.cell_count() == 0) throw InputError(volume.source + ": needs at least 2 samples along each axis");
  const glm::uvec3 cells = volume.dims - 1u;
  const FlatLayout layout = FlatLayout::for_cells(cells);
  const auto& cases = mc::cases();

  // 1. classify. Each sample is compared with the iso value once; a cell's case is then put
  // together from the flags of its four sample rows, and rows whose four sample rows are all
  // inside or all outside are skipped whole (as Flying Edges trims rows). Counts go straight
  // into the pyramid's level 0 (2x2 base elements per texel, one byte each).
  auto t0 = Clock::now();
  const glm::uvec3 dims = volume.dims;
  // Per sample row: 0 all outside, 1 all inside, 2 mixed.
  std::vector<uint8_t>& row_state = row_state_;
  row_state.resize(size_t(dims.y) * dims.z);
  // The same pass finds the data range, so a useless iso value is refused without another read.
  const glm::vec2 range = tbb::parallel_reduce(
      tbb::blocked_range<uint32_t>(0, dims.z), glm::vec2(INFINITY, -INFINITY),
      [&](const tbb::blocked_range<uint32_t>& zs, glm::vec2 local) {
        for (uint32_t z = zs.begin(); z != zs.end(); ++z)
          for (uint32_t y = 0; y < dims.y; ++y) {
            const size_t row = size_t(z) * dims.y + y;
            const float* f = volume.values.data() + row * dims.x;
            uint32_t inside_count = 0;
            for (uint32_t x = 0; x < dims.x; ++x) {
              inside_count += f[x] >= iso;
              local.x = std::min(local.x, f[x]);
              local.y = std::max(local.y, f[x]);
            }
            row_state[row] = inside_count == 0 ? 0 : inside_count == dims.x ? 1 : 2;
          }
        return local;
      },
      [](glm::vec2 a, glm::vec2 b) { return glm::vec2(std::min(a.x, b.x), std::max(a.y, b.y)); });
  if (iso < range.x || iso > range.y) {
    std::ostringstream message;
    message << volume.source << ": iso value " << iso << " is outside the data range [" << range.x << ", " << range.y << "]";
    throw InputError(message.str());
  }
  const uint32_t level_side = layout.side / 2;
  std::vector<uint8_t>& level0 = pyramid_.prepare_level0(layout.side);
  // Bit c of a case is corner (c & 1, c >> 1 & 1, c >> 2 & 1). A sample column's flags at
  // (y, z), (y+1, z), (y, z+1), (y+1, z+1), packed as bits 3..0, are corners 0, 2, 4, 6 of the
  // cell to their right (x) and 1, 3, 5, 7 of the cell to their left (shifted by one).
  static constexpr auto kSpread = [] {
    std::array<uint8_t, 16> table{};
    for (int i = 0; i < 16; ++i)
      table[i] = uint8_t((i & 8 ? 0x01 : 0) | (i & 4 ? 0x04 : 0) | (i & 2 ? 0x10 : 0) | (i & 1 ? 0x40 : 0));
    return table;
  }();
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, cells.z), [&](const tbb::blocked_range<uint32_t>& zs) {
    for (uint32_t z = zs.begin(); z != zs.end(); ++z)
      for (uint32_t y = 0; y < cells.y; ++y) {
        const size_t r00 = size_t(z) * dims.y + y, r10 = r00 + 1, r01 = r00 + dims.y, r11 = r01 + 1;
        const uint8_t s = row_state[r00];
        if (s != 2 && row_state[r10] == s && row_state[r01] == s && row_state[r11] == s) continue;
        const float *a = volume.values.data() + r00 * dims.x, *b = volume.values.data() + r10 * dims.x,
                    *c = volume.values.data() + r01 * dims.x, *d = volume.values.data() + r11 * dims.x;
        auto column = [&](uint32_t x) {
          return kSpread[(a[x] >= iso) << 3 | (b[x] >= iso) << 2 | (c[x] >= iso) << 1 | (d[x] >= iso)];
        };
        // Where this cell row sits in the flat layout, and its level-0 texel row.
        const uint32_t u0 = (z % layout.tiles_per_row) * cells.x;
        const uint32_t v = (z / layout.tiles_per_row) * cells.y + y;
        const size_t row_texels = size_t(v / 2) * level_side * 4 + 2 * (v & 1);
        uint8_t previous = column(0);
        for (uint32_t x = 0; x < cells.x; ++x) {
          const uint8_t next = column(x + 1);
          const uint8_t mc_case = uint8_t(previous | next << 1);
          previous = next;
          const uint8_t triangles = cases[mc_case].triangles;
          if (!triangles) continue;
          const uint32_t u = u0 + x;
          level0[row_texels + u / 2 * 4 + (u & 1)] = uint8_t(3 * triangles);
        }
      }
  });
  const double classify_ms = ms_since(t0);

  // 2. build.
  t0 = Clock::now();
  pyramid_.build();
  const HistoPyramid& pyramid = pyramid_;
  const double build_ms = ms_since(t0);

  // 3. extract: every non-empty cell writes its vertices' edges at the keys the pyramid gives.
  t0 = Clock::now();
  const uint64_t total = pyramid.total();
  std::vector<uint64_t>& vertex_edge = vertex_edge_;
  vertex_edge.resize(total);
  pyramid.parallel_visit([&](uint32_t element, uint64_t first_key, uint32_t count) {
    glm::uvec3 cell{0};
    layout.cell_of(element, cell);  // a counted element is always a cell, never padding
    const mc::Case& entry = cases[cell_case(volume, iso, cell.x, cell.y, cell.z)];
    for (uint32_t local = 0; local < count; ++local)
      vertex_edge[first_key + local] = edge_id(volume, cell.x, cell.y, cell.z, entry.edges[local]);
  });
  // Shared vertices: one per distinct crossed edge.
  const uint64_t max_edge = uint64_t(volume.values.size()) * 3;
  if (max_edge >= (uint64_t(1) << 32) || total >= (uint64_t(1) << 32))
    throw InputError(volume.source + ": too large for 32-bit edge ids (over 1.4 G samples)");
  number_vertices(vertex_edge, std::bit_width(max_edge), numbering_, pairs_, sort_scratch_);
  const std::vector<uint64_t>& unique_edges = numbering_.unique_edges;

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
  std::memcpy(mesh.triangles.data(), numbering_.vertex_of_key.data(), total * sizeof(uint32_t));
  if (vertex_edges) *vertex_edges = unique_edges;
  if (stats) *stats = {volume.cell_count(), mesh.triangles.size(), classify_ms, build_ms, ms_since(t0)};
  return mesh;
}

}  // namespace meniscus::sim
