#include "sim/histopyramid/slice_vertices.h"

#include <algorithm>
#include <bit>
#include <cmath>

#if defined(MENISCUS_MC_X86)
#include <immintrin.h>
#endif

namespace meniscus::sim {
namespace {

// Central differences inside, one-sided at the border; in volume index units over spacing.
glm::vec3 border_gradient(const Volume& v, glm::uvec3 p) {
  glm::vec3 g;
  for (int axis = 0; axis < 3; ++axis) {
    glm::uvec3 lo = p, hi = p;
    if (p[axis] > 0) --lo[axis];
    if (p[axis] + 1 < v.dims[axis]) ++hi[axis];
    g[axis] = (v.at(hi.x, hi.y, hi.z) - v.at(lo.x, lo.y, lo.z)) / float(hi[axis] - lo[axis]) / v.spacing[axis];
  }
  return g;
}

glm::vec3 gradient(const Volume& v, glm::uvec3 p, glm::vec3 half_inverse) {
  const glm::uvec3 dims = v.dims;
  if (p.x == 0 || p.y == 0 || p.z == 0 || p.x + 1 >= dims.x || p.y + 1 >= dims.y || p.z + 1 >= dims.z)
    return border_gradient(v, p);
  const ptrdiff_t line = dims.x, plane = ptrdiff_t(dims.x) * dims.y;
  const float* f = v.values.data() + p.z * plane + p.y * line + p.x;
  return glm::vec3(f[1] - f[-1], f[line] - f[-line], f[plane] - f[-plane]) * half_inverse;
}

// The reference: one edge's vertex, as the AVX-512 path computes it lane by lane.
void make_vertex(const Volume& volume, float iso, glm::uvec3 a, uint32_t axis, glm::vec3 half_inverse,
                 const VertexSpans& out, size_t v) {
  glm::uvec3 e = a;
  ++e[axis];
  const float fa = volume.at(a.x, a.y, a.z), fe = volume.at(e.x, e.y, e.z);
  const float t = (iso - fa) / (fe - fa);  // fa != fe: one is inside, the other outside
  // Only the edge's own axis moves, so a NaN t (a NaN sample) spoils that coordinate alone, as
  // in the vector paths.
  glm::vec3 p(a);
  p[axis] += t;
  out.positions[v] = volume.origin + volume.spacing * p;
  const glm::vec3 g = glm::mix(gradient(volume, a, half_inverse), gradient(volume, e, half_inverse), t);
  const float length_squared = glm::dot(g, g);
  // Inside is f >= iso, so the outward normal points down the gradient.
  out.normals[v] = length_squared > 0 ? g * (-1.0f / std::sqrt(length_squared)) : glm::vec3(0, 0, 1);
  if (out.edge_ids) out.edge_ids[v] = uint64_t(volume.index(a.x, a.y, a.z)) * 3 + axis;
}

void make_slice_vertices_baseline(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges,
                                  const VertexSpans& out) {
  const glm::vec3 half_inverse = 0.5f / volume.spacing;
  for (size_t i = 0; i < edges.size; ++i)
    make_vertex(volume, iso, {edges.x[i], edges.y[i], z}, edges.axis[i], half_inverse, out, i);
}

#if defined(MENISCUS_MC_X86)
#define MENISCUS_AVX2 __attribute__((target("avx2")))

// One batch of vertices made side by side, a lane each.
struct VertexLanes {
  alignas(64) float position[3][16], normal[3][16];
};

// Writes the batch's `count` vertices from `first` on: the lanes set in `inside` as made, the
// others (an end on or next to the border) on the scalar path, which takes one-sided differences.
void store_lanes(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges, size_t first, uint32_t count,
                 uint32_t inside, const VertexLanes& lanes, const VertexSpans& out) {
  const glm::vec3 half_inverse = 0.5f / volume.spacing;
  const uint64_t line = volume.dims.x, plane = uint64_t(volume.dims.x) * volume.dims.y;
  for (uint32_t lane = 0; lane < count; ++lane) {
    const size_t v = first + lane;
    if (inside >> lane & 1) {
      out.positions[v] = {lanes.position[0][lane], lanes.position[1][lane], lanes.position[2][lane]};
      out.normals[v] = {lanes.normal[0][lane], lanes.normal[1][lane], lanes.normal[2][lane]};
      if (out.edge_ids) out.edge_ids[v] = (z * plane + edges.y[v] * line + edges.x[v]) * 3 + edges.axis[v];
    } else {
      make_vertex(volume, iso, {edges.x[v], edges.y[v], z}, edges.axis[v], half_inverse, out, v);
    }
  }
}

// Up to eight edges from `first` (`count` of them), as make_vertex_lanes_avx512 does sixteen: lane
// masks are vectors of all-ones or zero lanes, and a blend stands for each masked operation.
MENISCUS_AVX2 void make_vertex_lanes_avx2(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges,
                                          size_t first, uint32_t count, const VertexSpans& out) {
  const glm::uvec3 dims = volume.dims;
  const glm::vec3 half_inverse = 0.5f / volume.spacing;
  const int line = int(dims.x), plane = int(dims.x * dims.y);
  const __m256i zero_i = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
  const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32(int(count)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  auto load = [&](const UninitializedVector<uint32_t>& from) MENISCUS_AVX2 {
    return _mm256_maskload_epi32(reinterpret_cast<const int*>(from.data() + first), lanes);
  };
  const __m256i x = load(edges.x), y = load(edges.y), axis = load(edges.axis);
  const __m256i along_x = _mm256_cmpeq_epi32(axis, zero_i), along_y = _mm256_cmpeq_epi32(axis, one),
                along_z = _mm256_cmpeq_epi32(axis, _mm256_set1_epi32(2));
  // Both ends at least one sample inside the border: a at >= 1, e at <= dims - 2 (an all-ones
  // lane is -1, so subtracting it steps the end along its axis).
  const __m256i ex = _mm256_sub_epi32(x, along_x), ey = _mm256_sub_epi32(y, along_y);
  __m256i inside = _mm256_and_si256(
      _mm256_and_si256(lanes, _mm256_and_si256(_mm256_cmpgt_epi32(x, zero_i), _mm256_cmpgt_epi32(y, zero_i))),
      _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(int(dims.x) - 1), ex),
                       _mm256_cmpgt_epi32(_mm256_set1_epi32(int(dims.y) - 1), ey)));
  if (z == 0 || z + 1 >= dims.z)
    inside = zero_i;  // a, or e of an x- or y-edge, on the z border
  else if (z + 2 >= dims.z)
    inside = _mm256_andnot_si256(along_z, inside);  // a z-edge's e on it
  const __m256i a = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_set1_epi32(int(z) * plane), _mm256_mullo_epi32(y, _mm256_set1_epi32(line))), x);
  const __m256i step =
      _mm256_blendv_epi8(_mm256_blendv_epi8(one, _mm256_set1_epi32(line), along_y), _mm256_set1_epi32(plane), along_z);
  const __m256i e = _mm256_add_epi32(a, step);
  const float* f = volume.values.data();
  const __m256 zero = _mm256_setzero_ps(), inside_ps = _mm256_castsi256_ps(inside);
  auto at = [&](__m256i index) MENISCUS_AVX2 { return _mm256_mask_i32gather_ps(zero, f, index, inside_ps, 4); };
  auto difference = [&](__m256i index, int offset, float scale) MENISCUS_AVX2 {
    const __m256i d = _mm256_set1_epi32(offset);
    return _mm256_mul_ps(_mm256_sub_ps(at(_mm256_add_epi32(index, d)), at(_mm256_sub_epi32(index, d))),
                         _mm256_set1_ps(scale));
  };
  const __m256 fa = at(a), fe = at(e);
  const __m256 t = _mm256_div_ps(_mm256_sub_ps(_mm256_set1_ps(iso), fa),
                                 _mm256_blendv_ps(_mm256_set1_ps(1), _mm256_sub_ps(fe, fa), inside_ps));
  const __m256 keep = _mm256_sub_ps(_mm256_set1_ps(1), t);
  __m256 g[3];
  const int offsets[3] = {1, line, plane};
  for (int c = 0; c < 3; ++c)
    g[c] = _mm256_add_ps(_mm256_mul_ps(difference(a, offsets[c], half_inverse[c]), keep),
                         _mm256_mul_ps(difference(e, offsets[c], half_inverse[c]), t));
  const __m256 length_squared =
      _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(g[0], g[0]), _mm256_mul_ps(g[1], g[1])), _mm256_mul_ps(g[2], g[2]));
  const __m256 has_length = _mm256_cmp_ps(length_squared, zero, _CMP_GT_OQ);
  const __m256 scale = _mm256_div_ps(_mm256_set1_ps(-1),
                                     _mm256_sqrt_ps(_mm256_blendv_ps(_mm256_set1_ps(1), length_squared, has_length)));
  VertexLanes result;
  const __m256i along[3] = {along_x, along_y, along_z};
  const __m256 sample[3] = {_mm256_cvtepi32_ps(x), _mm256_cvtepi32_ps(y), _mm256_set1_ps(float(z))};
  for (int c = 0; c < 3; ++c) {
    const __m256 moved = _mm256_add_ps(sample[c], _mm256_and_ps(_mm256_castsi256_ps(along[c]), t));
    _mm256_store_ps(result.position[c], _mm256_add_ps(_mm256_set1_ps(volume.origin[c]),
                                                      _mm256_mul_ps(_mm256_set1_ps(volume.spacing[c]), moved)));
    const __m256 flat = _mm256_set1_ps(c == 2 ? 1.0f : 0.0f);
    _mm256_store_ps(result.normal[c], _mm256_blendv_ps(flat, _mm256_mul_ps(g[c], scale), has_length));
  }
  store_lanes(volume, iso, z, edges, first, count, uint32_t(_mm256_movemask_ps(inside_ps)), result, out);
}

MENISCUS_AVX2 void make_slice_vertices_avx2(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges,
                                            const VertexSpans& out) {
  for (size_t first = 0; first < edges.size; first += 8)
    make_vertex_lanes_avx2(volume, iso, z, edges, first, uint32_t(std::min<size_t>(8, edges.size - first)), out);
}

#define MENISCUS_AVX512 __attribute__((target("avx512f")))

// Up to sixteen edges from `first` (the lanes in `lanes`, from lane 0 on).
MENISCUS_AVX512 void make_vertex_lanes_avx512(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges,
                                              size_t first, __mmask16 lanes, const VertexSpans& out) {
  const glm::uvec3 dims = volume.dims;
  const glm::vec3 half_inverse = 0.5f / volume.spacing;
  const int line = int(dims.x), plane = int(dims.x * dims.y);
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i x = _mm512_maskz_loadu_epi32(lanes, edges.x.data() + first);
  const __m512i y = _mm512_maskz_loadu_epi32(lanes, edges.y.data() + first);
  const __m512i axis = _mm512_maskz_loadu_epi32(lanes, edges.axis.data() + first);
  const __mmask16 along_x = _mm512_cmpeq_epi32_mask(axis, _mm512_setzero_si512());
  const __mmask16 along_y = _mm512_cmpeq_epi32_mask(axis, one);
  const __mmask16 along_z = _mm512_cmpeq_epi32_mask(axis, _mm512_set1_epi32(2));
  // Both ends at least one sample inside the border: a at >= 1, e at <= dims - 2.
  const __m512i ex = _mm512_mask_add_epi32(x, along_x, x, one), ey = _mm512_mask_add_epi32(y, along_y, y, one);
  __mmask16 inside = lanes & _mm512_cmpge_epi32_mask(x, one) & _mm512_cmpge_epi32_mask(y, one) &
                     _mm512_cmple_epi32_mask(ex, _mm512_set1_epi32(int(dims.x) - 2)) &
                     _mm512_cmple_epi32_mask(ey, _mm512_set1_epi32(int(dims.y) - 2));
  if (z == 0 || z + 1 >= dims.z)
    inside = 0;  // a, or e of an x- or y-edge, on the z border
  else if (z + 2 >= dims.z)
    inside &= ~along_z;  // a z-edge's e on it
  const __m512i a = _mm512_add_epi32(
      _mm512_add_epi32(_mm512_set1_epi32(int(z) * plane), _mm512_mullo_epi32(y, _mm512_set1_epi32(line))), x);
  const __m512i step = _mm512_mask_blend_epi32(along_z, _mm512_mask_blend_epi32(along_y, one, _mm512_set1_epi32(line)),
                                               _mm512_set1_epi32(plane));
  const __m512i e = _mm512_add_epi32(a, step);
  const float* f = volume.values.data();
  const __m512 zero = _mm512_setzero_ps();
  auto at = [&](__m512i index) MENISCUS_AVX512 { return _mm512_mask_i32gather_ps(zero, inside, index, f, 4); };
  auto difference = [&](__m512i index, int offset, float scale) MENISCUS_AVX512 {
    const __m512i d = _mm512_set1_epi32(offset);
    return _mm512_mul_ps(_mm512_sub_ps(at(_mm512_add_epi32(index, d)), at(_mm512_sub_epi32(index, d))),
                         _mm512_set1_ps(scale));
  };
  const __m512 fa = at(a), fe = at(e);
  const __m512 t = _mm512_maskz_div_ps(inside, _mm512_sub_ps(_mm512_set1_ps(iso), fa),
                                       _mm512_mask_sub_ps(_mm512_set1_ps(1), inside, fe, fa));
  const __m512 keep = _mm512_sub_ps(_mm512_set1_ps(1), t);
  __m512 g[3];
  const int offsets[3] = {1, line, plane};
  for (int c = 0; c < 3; ++c)
    g[c] = _mm512_add_ps(_mm512_mul_ps(difference(a, offsets[c], half_inverse[c]), keep),
                         _mm512_mul_ps(difference(e, offsets[c], half_inverse[c]), t));
  const __m512 length_squared =
      _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(g[0], g[0]), _mm512_mul_ps(g[1], g[1])), _mm512_mul_ps(g[2], g[2]));
  const __mmask16 has_length = _mm512_cmp_ps_mask(length_squared, zero, _CMP_GT_OQ);
  const __m512 scale =
      _mm512_maskz_div_ps(has_length, _mm512_set1_ps(-1), _mm512_maskz_sqrt_ps(has_length, length_squared));
  VertexLanes result;
  const __mmask16 along[3] = {along_x, along_y, along_z};
  const __m512 sample[3] = {_mm512_maskz_cvtepi32_ps(0xFFFF, x), _mm512_maskz_cvtepi32_ps(0xFFFF, y),
                            _mm512_set1_ps(float(z))};
  for (int c = 0; c < 3; ++c) {
    const __m512 moved = _mm512_add_ps(sample[c], _mm512_maskz_mov_ps(along[c], t));
    _mm512_store_ps(result.position[c], _mm512_add_ps(_mm512_set1_ps(volume.origin[c]),
                                                      _mm512_mul_ps(_mm512_set1_ps(volume.spacing[c]), moved)));
    const __m512 flat = _mm512_set1_ps(c == 2 ? 1.0f : 0.0f);
    _mm512_store_ps(result.normal[c], _mm512_mask_mul_ps(flat, has_length, g[c], scale));
  }
  store_lanes(volume, iso, z, edges, first, uint32_t(std::popcount(uint32_t(lanes))), inside, result, out);
}

MENISCUS_AVX512 void make_slice_vertices_avx512(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges,
                                                const VertexSpans& out) {
  for (size_t first = 0; first < edges.size; first += 16) {
    const size_t left = edges.size - first;
    make_vertex_lanes_avx512(volume, iso, z, edges, first, left >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1),
                             out);
  }
}
#endif

using MakeSliceVertices = void (*)(const Volume&, float, uint32_t, const CrossedEdges&, const VertexSpans&);

MakeSliceVertices make_slice_vertices_for(McKernels kernels) {
#if defined(MENISCUS_MC_X86)
  return mc_loop<MakeSliceVertices>(kernels, make_slice_vertices_avx512, make_slice_vertices_avx2,
                                    make_slice_vertices_baseline);
#else
  (void)kernels;
  return make_slice_vertices_baseline;
#endif
}

}  // namespace

uint64_t list_slice_edges(SampleMasks& masks, uint32_t z, uint64_t first, CrossedEdges& edges, uint32_t* slots) {
  const glm::uvec3 dims = masks.dims;
  const bool has_z = z + 1 < dims.z;
  size_t n = 0;
  for (uint32_t y = 0; y < dims.y; ++y) {
    const uint32_t row = z * dims.y + y;
    const bool has_y = y + 1 < dims.y;
    uint32_t* first_vertex = masks.first_vertex.data() + size_t(row) * masks.words;
    for (uint32_t w = 0; w < masks.words; ++w) {
      first_vertex[w] = uint32_t(first + n);  // the caller refuses totals past 2^32
      const SampleMasks::Crossings c = masks.crossings(row, w, has_y, has_z);
      uint64_t bits = c.x | c.y | c.z;
      if (!bits) continue;
      // Each crossed sample writes all three axes' slots and keeps the crossed ones (no
      // branch per axis), so there must be room for three more past the count.
      const size_t most = n + 3 * size_t(std::popcount(bits));
      if (edges.x.size() < most) {
        const size_t grown = std::max(most, 2 * edges.x.size());
        edges.x.resize(grown);
        edges.y.resize(grown);
        edges.axis.resize(grown);
      }
      for (; bits; bits &= bits - 1) {
        const uint32_t b = uint32_t(std::countr_zero(bits)), x = 64 * w + b;
        const uint64_t crossed[3] = {c.x >> b & 1, c.y >> b & 1, c.z >> b & 1};
        uint32_t* slot = slots + 4 * (size_t(y) * dims.x + x);
        for (uint32_t axis = 0; axis < 3; ++axis) {
          edges.x[n] = x;
          edges.y[n] = y;
          edges.axis[n] = axis;
          slot[axis] = uint32_t(first + n);
          n += crossed[axis];
        }
      }
    }
  }
  edges.size = n;
  return first + n;
}

void make_slice_vertices(const Volume& volume, float iso, uint32_t z, const CrossedEdges& edges, VertexSpans out,
                         McKernels kernels) {
  make_slice_vertices_for(kernels)(volume, iso, z, edges, out);
}

}  // namespace meniscus::sim
