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

namespace {

// Vertex counts per case (3 per triangle), small enough to stay in L1.
const std::array<uint8_t, 256>& vertex_counts() {
  static const std::array<uint8_t, 256> table = [] {
    std::array<uint8_t, 256> out{};
    for (int c = 0; c < 256; ++c) out[c] = uint8_t(3 * mc::cases()[c].triangles);
    return out;
  }();
  return table;
}

// Samples x and x + 1 of a mask row as bits 0 and 1 of the result.
uint32_t bit_pair(const uint64_t* row, uint32_t x) {
  const uint32_t w = x >> 6, b = x & 63;
  const uint32_t low = uint32_t(row[w] >> b & 1);
  const uint32_t high = b < 63 ? uint32_t(row[w] >> (b + 1) & 1) : uint32_t(row[w + 1] & 1);
  return low | high << 1;
}

}  // namespace

// Classification fused with the bottom of the pyramid build. For each row of 64 cells the
// eight corner bit-words give the mixed cells (some corner inside, some outside) at once; a
// 16-cell granule with none writes a single 0 into level 2 and nothing below it (the layout
// only asks for valid chunks under non-zero parents), otherwise its 16 base counts, 4 level-1
// sums and its level-2 sum are written together.
uint64_t MarchingCubes::classify_cells(const std::array<uint8_t, 256>& counts, uint32_t z_begin, uint32_t z_end) {
  const glm::uvec3 dims = masks_.dims, cells = dims - 1u;
  const uint32_t words = masks_.words, cell_words = row_stride_ / 64, stride = row_stride_;
  uint8_t* base = pyramid_.level_bytes(0);
  uint8_t* level1 = pyramid_.level_bytes(1);
  auto* level2 = reinterpret_cast<uint16_t*>(pyramid_.level_bytes(2));
  const uint64_t* inside = masks_.inside.data();
  return tbb::parallel_reduce(
      tbb::blocked_range<uint32_t>(z_begin * cells.y, z_end * cells.y, 32), uint64_t(0),
      [&](const tbb::blocked_range<uint32_t>& r, uint64_t total) {
        for (uint32_t c = r.begin(); c != r.end(); ++c) {
          const uint32_t y = c % cells.y, z = c / cells.y;
          const uint64_t* m[4];
          m[0] = inside + (size_t(z) * dims.y + y) * words;
          m[1] = m[0] + words;
          m[2] = m[0] + size_t(dims.y) * words;
          m[3] = m[2] + words;
          for (uint32_t w = 0; w < cell_words; ++w) {
            const size_t first = size_t(c) * stride + 64 * w;
            uint16_t* granules = level2 + first / 16;
            // Words of the padded row past the last cell: nothing to read (the sample masks
            // end there), and the unsigned `left` below would wrap.
            if (64 * w >= cells.x) {
              granules[0] = granules[1] = granules[2] = granules[3] = 0;
              continue;
            }
            uint64_t lo[4], hi[4];
            for (int k = 0; k < 4; ++k) {
              lo[k] = m[k][w];
              hi[k] = lo[k] >> 1 | (w + 1 < words ? m[k][w + 1] << 63 : 0);
            }
            const uint64_t any = lo[0] | lo[1] | lo[2] | lo[3] | hi[0] | hi[1] | hi[2] | hi[3];
            const uint64_t all = lo[0] & lo[1] & lo[2] & lo[3] & hi[0] & hi[1] & hi[2] & hi[3];
            const uint32_t left = cells.x - 64 * w;
            const uint64_t valid = left >= 64 ? ~uint64_t(0) : (uint64_t(1) << left) - 1;
            const uint64_t mixed = (any & ~all) & valid;
            if (!mixed) {
              granules[0] = granules[1] = granules[2] = granules[3] = 0;
              continue;
            }
            for (uint32_t g = 0; g < 4; ++g) {
              uint64_t bits = mixed >> (16 * g) & 0xFFFF;
              if (!bits) {
                granules[g] = 0;
                continue;
              }
              uint8_t* cell = base + first + 16 * g;
              std::memset(cell, 0, 16);
              while (bits) {
                const uint32_t k = uint32_t(std::countr_zero(bits));
                bits &= bits - 1;
                const uint32_t b = 16 * g + k;  // cell x = 64 w + b: corners at bits b and b + 1
                const uint32_t mc_case = uint32_t(lo[0] >> b & 1) | uint32_t(hi[0] >> b & 1) << 1 |
                                         uint32_t(lo[1] >> b & 1) << 2 | uint32_t(hi[1] >> b & 1) << 3 |
                                         uint32_t(lo[2] >> b & 1) << 4 | uint32_t(hi[2] >> b & 1) << 5 |
                                         uint32_t(lo[3] >> b & 1) << 6 | uint32_t(hi[3] >> b & 1) << 7;
                cell[k] = counts[mc_case];
              }
              uint8_t* sums = level1 + (first + 16 * g) / 4;
              uint32_t granule = 0;
              for (int q = 0; q < 4; ++q) {
                sums[q] = uint8_t(cell[4 * q] + cell[4 * q + 1] + cell[4 * q + 2] + cell[4 * q + 3]);
                granule += sums[q];
              }
              granules[g] = uint16_t(granule);
              total += granule;
            }
          }
        }
        return total;
      },
      [](uint64_t a, uint64_t b) { return a + b; });
}

// One vertex per crossed edge, in edge-id order, rows in parallel: linear interpolation of
// the position and of the central-difference gradients at the edge's ends.
void MarchingCubes::make_vertices(const Volume& volume, float iso, uint32_t z_begin, uint32_t z_end, IndexedMesh& mesh,
                                  std::vector<uint64_t>* vertex_edges) const {
  const uint32_t words = masks_.words;
  const size_t line = volume.dims.x, plane = size_t(volume.dims.x) * volume.dims.y;
  const glm::vec3 half_inverse = 0.5f / volume.spacing;
  // Central differences at an inside sample by fixed offsets; the border goes the general way.
  auto gradient_at = [&](glm::uvec3 p) {
    if (p.x == 0 || p.y == 0 || p.z == 0 || p.x + 1 >= volume.dims.x || p.y + 1 >= volume.dims.y || p.z + 1 >= volume.dims.z)
      return gradient(volume, p);
    const float* f = volume.values.data() + p.z * plane + p.y * line + p.x;
    return glm::vec3(f[1] - f[-1], f[line] - f[-ptrdiff_t(line)], f[plane] - f[-ptrdiff_t(plane)]) * half_inverse;
  };
  tbb::parallel_for(tbb::blocked_range<uint32_t>(z_begin * volume.dims.y, z_end * volume.dims.y, 64),
                    [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t row = r.begin(); row != r.end(); ++row) {
      const uint32_t y = row % volume.dims.y, z = row / volume.dims.y;
      for (uint32_t w = 0; w < words; ++w) {
        const SampleMasks::Crossings c = masks_.crossings(row, w, y + 1 < volume.dims.y, z + 1 < volume.dims.z);
        uint64_t bits = c.x | c.y | c.z;
        uint32_t v = masks_.first_vertex[size_t(row) * words + w];
        while (bits) {
          const uint32_t b = uint32_t(std::countr_zero(bits));
          bits &= bits - 1;
          const glm::uvec3 a{64 * w + b, y, z};
          const uint64_t crossed[3] = {c.x, c.y, c.z};
          for (uint32_t axis = 0; axis < 3; ++axis) {
            if (!(crossed[axis] >> b & 1)) continue;
            glm::uvec3 e = a;
            ++e[axis];
            const float fa = volume.at(a.x, a.y, a.z), fe = volume.at(e.x, e.y, e.z);
            const float t = (iso - fa) / (fe - fa);  // fa != fe: one is inside, the other outside
            const glm::vec3 pa(a), pe(e);
            mesh.positions[v] = volume.origin + volume.spacing * (pa + t * (pe - pa));
            const glm::vec3 g = glm::mix(gradient_at(a), gradient_at(e), t);
            const float length_squared = glm::dot(g, g);
            // Inside is f >= iso, so the outward normal points down the gradient.
            mesh.normals[v] = length_squared > 0 ? g * (-1.0f / std::sqrt(length_squared)) : glm::vec3(0, 0, 1);
            if (vertex_edges) (*vertex_edges)[v] = uint64_t(volume.index(a.x, a.y, a.z)) * 3 + axis;
            ++v;
          }
        }
      }
    }
  });
}

// Every non-empty cell writes its corners' vertex indices at the keys the pyramid gives it:
// compaction (which cells) and expansion (how many corners each) by one parallel descent.
namespace {

// Per case and output corner, where its vertex sits relative to the cell: bits 0-1 the sample
// row k = dy + 2 dz, bits 2-4 the slot dx * 3 + axis.
struct CornerCodes {
  std::array<std::array<uint8_t, mc::kMaxTriangles * 3>, 256> code{};
  // rank[a][slot]: with a = crossed axes at x (bits 0-2) and at x + 1 (bits 3-5) of a row,
  // how many crossed edges of that row come before the one in `slot`, counted from sample x.
  std::array<std::array<uint8_t, 6>, 64> rank{};
};

const CornerCodes& corner_codes() {
  static const CornerCodes table = [] {
    CornerCodes t;
    for (int c = 0; c < 256; ++c)
      for (int i = 0; i < 3 * mc::cases()[c].triangles; ++i) {
        const mc::Edge& e = mc::edges()[mc::cases()[c].edges[i]];
        t.code[c][i] = uint8_t(((e.a >> 1) & 1) | ((e.a >> 2) & 1) << 1 | ((e.a & 1) * 3 + e.axis) << 2);
      }
    for (int a = 0; a < 64; ++a)
      for (int slot = 0; slot < 6; ++slot) {
        const int dx = slot / 3, axis = slot % 3;
        t.rank[a][slot] = uint8_t((dx ? std::popcount(unsigned(a & 7)) : 0) + std::popcount(unsigned((a >> (3 * dx)) & ((1 << axis) - 1))));
      }
    return t;
  }();
  return table;
}

}  // namespace

void MarchingCubes::write_corners(IndexedMesh& mesh) const {
  auto* corners = reinterpret_cast<uint32_t*>(mesh.triangles.data());
  const CornerCodes& codes = corner_codes();
  const glm::uvec3 dims = masks_.dims, cells = dims - 1u;
  const uint32_t shift = uint32_t(std::countr_zero(row_stride_)), words = masks_.words;
  // cell_row / cells.y by a multiply: exact after the one-step correction for every 32-bit
  // cell row (a hardware divide per cell was a third of this loop).
  const double inverse = 1.0 / cells.y;
  pyramid_.parallel_visit([&](uint64_t element, uint64_t first_key, uint32_t count) {
    const uint32_t cell_row = uint32_t(element >> shift), x = uint32_t(element & (row_stride_ - 1));
    uint32_t z = uint32_t(cell_row * inverse);
    if (z * cells.y > cell_row) --z;
    else if ((z + 1) * cells.y <= cell_row) ++z;
    const uint32_t y = cell_row - z * cells.y, row = cell_row + z;  // row = z * dims.y + y
    // The cell's four sample rows k = dy + 2 dz: its case bits, and per row the index of the
    // first vertex at sample x and the crossed axes at x and x + 1, so that each corner's
    // vertex is a table lookup rather than a count.
    const uint32_t w = x >> 6, b = x & 63;
    const uint64_t below = (uint64_t(1) << b) - 1;
    uint32_t mc_case = 0, first[4], axes[4];
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t r = row + (k & 1) + (k >> 1) * dims.y;
      mc_case |= bit_pair(masks_.inside.data() + size_t(r) * words, x) << (2 * k);
      const bool has_y = y + (k & 1) + 1 < dims.y, has_z = z + (k >> 1) + 1 < dims.z;
      const SampleMasks::Crossings c = masks_.crossings(r, w, has_y, has_z);
      first[k] = masks_.first_vertex[size_t(r) * words + w] +
                 uint32_t(std::popcount(c.x & below) + std::popcount(c.y & below) + std::popcount(c.z & below));
      uint32_t a = uint32_t(c.x >> b & 1) | uint32_t(c.y >> b & 1) << 1 | uint32_t(c.z >> b & 1) << 2;
      if (b < 63) {
        a |= uint32_t(c.x >> (b + 1) & 1) << 3 | uint32_t(c.y >> (b + 1) & 1) << 4 | uint32_t(c.z >> (b + 1) & 1) << 5;
      } else {
        const SampleMasks::Crossings n = masks_.crossings(r, w + 1, has_y, has_z);
        a |= uint32_t(n.x & 1) << 3 | uint32_t(n.y & 1) << 4 | uint32_t(n.z & 1) << 5;
      }
      axes[k] = a;
    }
    const uint8_t* code = codes.code[mc_case].data();
    uint32_t* out = corners + first_key;
    for (uint32_t local = 0; local < count; ++local) {
      const uint32_t k = code[local] & 3;
      out[local] = first[k] + codes.rank[axes[k]][code[local] >> 2];
    }
  });
}

IndexedMesh MarchingCubes::extract(const Volume& volume, float iso, McStats* stats,
                                   std::vector<uint64_t>* vertex_edges) {
  if (!std::isfinite(iso)) throw InputError(volume.source + ": iso value is not finite");
  if (volume.cell_count() == 0) throw InputError(volume.source + ": needs at least 2 samples along each axis");
  const glm::uvec3 dims = volume.dims, cells = dims - 1u;
  if (uint64_t(dims.x) * dims.y * dims.z * 3 >= (uint64_t(1) << 32))
    throw InputError(volume.source + ": too large for 32-bit edge ids (over 1.4 G samples)");
  const auto& counts = vertex_counts();
  resize_masks(masks_, dims);
  row_stride_ = chunked_row_stride(cells.x);
  pyramid_.resize(uint64_t(row_stride_) * cells.y * cells.z);
  IndexedMesh mesh;
  mesh.positions.reserve(last_vertices_);
  mesh.normals.reserve(last_vertices_);
  double classify_ms = 0, extract_ms = 0;

  // 1. classify, streaming through the volume a slab of slices at a time (about 2 MB of
  // samples), as Flying Edges does: the samples become inside bits one slab ahead; then the
  // slab's crossed edges are numbered and their vertices made while the samples the gradients
  // read are still in cache; then its cells are classified from the bits, straight into the
  // pyramid's lowest three levels.
  const size_t plane_bytes = size_t(dims.x) * dims.y * sizeof(float);
  const uint32_t slab = uint32_t(std::clamp<size_t>((size_t(2) << 20) / plane_bytes, 2, 64));
  SampleCensus census;
  auto classify_slab = [&](uint32_t z0) {
    const auto t = Clock::now();
    const SampleCensus c = classify_samples(volume, iso, masks_, z0, std::min(z0 + slab, dims.z));
    census.any_inside |= c.any_inside;
    census.any_outside |= c.any_outside;
    classify_ms += ms_since(t);
  };
  classify_slab(0);
  uint64_t vertices = 0, total = 0;
  for (uint32_t z0 = 0; z0 < dims.z; z0 += slab) {
    const uint32_t z1 = std::min(z0 + slab, dims.z);
    if (z1 < dims.z) classify_slab(z1);  // the bits of slice z1 are needed below
    auto t = Clock::now();
    const uint64_t first = vertices;
    vertices = number_crossings(masks_, z0, z1, first);
    if (vertices >= (uint64_t(1) << 32)) throw InputError(volume.source + ": over 2^32 vertices");
    mesh.positions.resize(vertices);
    mesh.normals.resize(vertices);
    if (vertex_edges) vertex_edges->resize(vertices);
    make_vertices(volume, iso, z0, z1, mesh, vertex_edges);
    extract_ms += ms_since(t);
    t = Clock::now();
    total += classify_cells(counts, z0, std::min(z1, cells.z));
    classify_ms += ms_since(t);
  }
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
  if (total >= (uint64_t(1) << 32)) throw InputError(volume.source + ": over 2^32 triangle corners");
  last_vertices_ = vertices;

  // 2. build the levels above the ones classification filled.
  auto t = Clock::now();
  pyramid_.build_above(2);
  const double build_ms = ms_since(t);

  // 3. extract: triangles by traversal.
  t = Clock::now();
  mesh.triangles.resize(total / 3);
  write_corners(mesh);
  extract_ms += ms_since(t);
  if (stats) *stats = {volume.cell_count(), mesh.triangles.size(), classify_ms, build_ms, extract_ms};
  return mesh;
}

}  // namespace meniscus::sim
