// The packet walk: one near-first traversal for up to kPacketSize queries. A node is entered
// when its box is within some query's radius, and a leaf's points are tested for the queries
// whose radius reaches its box. "Near" is the side of the packet's centre.
//
// The walk is written once over a set of kernels (box test of all lanes, a leaf batch's
// distances, which of them may enter a list, the list and its insertion): SSE2, the x86-64
// baseline, and AVX2 or AVX-512 where the CPU has them (KnnKernels::kFastest, found once per
// process). All compute every distance with the same separate multiplies and adds as distance2
// (this file is built without contraction into fused multiply-adds), so they find the same
// neighbours.
#include "sim/kdtree/knn_packet.h"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace meniscus::sim::kdtree {
namespace {

static_assert(kLeafBatch == 32, "a batch's candidates are one 32-bit mask");

// A query's list as the walk uses it: offers, the k-th squared distance, and a store when its
// leaf is done. This one works on the list in memory with the insertion `Offer`.
template <float (*Offer)(float*, uint32_t*, uint32_t, float, uint32_t)>
class ListInMemory {
 public:
  ListInMemory(float* row_d2, uint32_t* row_ids, uint32_t k) : row_d2_(row_d2), row_ids_(row_ids), k_(k) {}
  void offer(float d2, uint32_t id) { Offer(row_d2_, row_ids_, k_, d2, id); }
  float kth() const { return row_d2_[k_ - 1]; }
  void store() const {}

 private:
  float* row_d2_;
  uint32_t* row_ids_;
  uint32_t k_;
};

// The x86-64 baseline, or plain C++ elsewhere.
struct BaselineKernels {
  // box_distance2 of kdtree_rules.h written as max(lo - x, x - hi, 0) per axis: the very same
  // rounded numbers (lo <= hi in every node, and a nonzero difference of floats keeps its
  // sign), for all lanes at once. Returns the lanes whose `prune` the box distance does not exceed.
#if defined(__SSE2__)
  static __m128 axis_gap(__m128 lo, __m128 hi, __m128 x) {
    return _mm_max_ps(_mm_max_ps(_mm_sub_ps(lo, x), _mm_sub_ps(x, hi)), _mm_setzero_ps());
  }
  static uint32_t lanes_reaching(const KdNode& node, const QueryPacket& q, const float* prune) {
    const __m128 lo0 = _mm_set1_ps(node.lo[0]), lo1 = _mm_set1_ps(node.lo[1]), lo2 = _mm_set1_ps(node.lo[2]);
    const __m128 hi0 = _mm_set1_ps(node.hi[0]), hi1 = _mm_set1_ps(node.hi[1]), hi2 = _mm_set1_ps(node.hi[2]);
    uint32_t reach = 0;
    for (uint32_t l = 0; l < kPacketSize; l += 4) {
      const __m128 dx = axis_gap(lo0, hi0, _mm_load_ps(q.x + l));
      const __m128 dy = axis_gap(lo1, hi1, _mm_load_ps(q.y + l));
      const __m128 dz = axis_gap(lo2, hi2, _mm_load_ps(q.z + l));
      // ((dx dx + dy dy) + dz dz), the order box_distance2 adds in.
      const __m128 d2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
      reach |= uint32_t(_mm_movemask_ps(_mm_cmple_ps(d2, _mm_load_ps(prune + l)))) << l;
    }
    return reach;
  }

  // distance2 for the n points of a batch: writes d2[0, n) and returns those with d2 <= limit
  // as a mask, so that the caller branches once per point that may enter its list rather than
  // once per point tested (most are beyond the limit, and that branch mispredicts).
  static uint32_t batch_within(const float* px, const float* py, const float* pz, uint32_t n, float x, float y, float z,
                               float limit, float* d2) {
    const __m128 qx = _mm_set1_ps(x), qy = _mm_set1_ps(y), qz = _mm_set1_ps(z), lim = _mm_set1_ps(limit);
    uint32_t mask = 0, j = 0;
    for (; j + 4 <= n; j += 4) {
      const __m128 dx = _mm_sub_ps(_mm_loadu_ps(px + j), qx);
      const __m128 dy = _mm_sub_ps(_mm_loadu_ps(py + j), qy);
      const __m128 dz = _mm_sub_ps(_mm_loadu_ps(pz + j), qz);
      const __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
      _mm_store_ps(d2 + j, d);
      mask |= uint32_t(_mm_movemask_ps(_mm_cmple_ps(d, lim))) << j;
    }
    for (; j < n; ++j) {
      d2[j] = distance2(px[j], py[j], pz[j], x, y, z);
      mask |= uint32_t(d2[j] <= limit) << j;
    }
    return mask;
  }
#else
  static uint32_t lanes_reaching(const KdNode& node, const QueryPacket& q, const float* prune) {
    uint32_t reach = 0;
    for (uint32_t l = 0; l < kPacketSize; ++l)
      reach |= uint32_t(box_distance2(node.lo, node.hi, q.x[l], q.y[l], q.z[l]) <= prune[l]) << l;
    return reach;
  }
  static uint32_t batch_within(const float* px, const float* py, const float* pz, uint32_t n, float x, float y, float z,
                               float limit, float* d2) {
    uint32_t mask = 0;
    for (uint32_t j = 0; j < n; ++j) {
      d2[j] = distance2(px[j], py[j], pz[j], x, y, z);
      mask |= uint32_t(d2[j] <= limit) << j;
    }
    return mask;
  }
#endif
  using List = ListInMemory<offer_neighbour_baseline>;
};

#if defined(MENISCUS_KDTREE_AVX512)
// Eight floats a register: the lanes' box distances in two, a batch of 32 in four, a list of
// k <= 16 in two (and its ids in two more), held in registers while a query tests a leaf.
struct Avx2Kernels {
  MENISCUS_KDTREE_AVX2_TARGET static __m256 axis_gap(__m256 lo, __m256 hi, __m256 x) {
    return _mm256_max_ps(_mm256_max_ps(_mm256_sub_ps(lo, x), _mm256_sub_ps(x, hi)), _mm256_setzero_ps());
  }
  MENISCUS_KDTREE_AVX2_TARGET static uint32_t lanes_reaching(const KdNode& node, const QueryPacket& q,
                                                             const float* prune) {
    const __m256 lo0 = _mm256_set1_ps(node.lo[0]), lo1 = _mm256_set1_ps(node.lo[1]), lo2 = _mm256_set1_ps(node.lo[2]);
    const __m256 hi0 = _mm256_set1_ps(node.hi[0]), hi1 = _mm256_set1_ps(node.hi[1]), hi2 = _mm256_set1_ps(node.hi[2]);
    uint32_t reach = 0;
    for (uint32_t l = 0; l < kPacketSize; l += 8) {
      const __m256 dx = axis_gap(lo0, hi0, _mm256_load_ps(q.x + l));
      const __m256 dy = axis_gap(lo1, hi1, _mm256_load_ps(q.y + l));
      const __m256 dz = axis_gap(lo2, hi2, _mm256_load_ps(q.z + l));
      const __m256 d2 =
          _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
      reach |= uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(d2, _mm256_load_ps(prune + l), _CMP_LE_OQ))) << l;
    }
    return reach;
  }
  MENISCUS_KDTREE_AVX2_TARGET static uint32_t batch_within(const float* px, const float* py, const float* pz,
                                                           uint32_t n, float x, float y, float z, float limit,
                                                           float* d2) {
    const __m256 qx = _mm256_set1_ps(x), qy = _mm256_set1_ps(y), qz = _mm256_set1_ps(z), lim = _mm256_set1_ps(limit);
    uint32_t mask = 0, j = 0;
    for (; j + 8 <= n; j += 8) {
      const __m256 dx = _mm256_sub_ps(_mm256_loadu_ps(px + j), qx);
      const __m256 dy = _mm256_sub_ps(_mm256_loadu_ps(py + j), qy);
      const __m256 dz = _mm256_sub_ps(_mm256_loadu_ps(pz + j), qz);
      const __m256 d =
          _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
      _mm256_store_ps(d2 + j, d);
      mask |= uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(d, lim, _CMP_LE_OQ))) << j;
    }
    // The rest (a leaf's last batch) as the baseline does it.
    if (j < n) mask |= BaselineKernels::batch_within(px + j, py + j, pz + j, n - j, x, y, z, limit, d2 + j) << j;
    return mask;
  }
  using List = Avx2ShortList;  // k <= kListBlock
};

// Lists longer than four registers hold stay in memory.
struct Avx2LongListKernels : Avx2Kernels {
  using List = ListInMemory<offer_neighbour_avx2>;
};

// Sixteen floats a register: all lanes' box distances in one, a whole batch in two, a list of
// k <= 16 in one.
struct Avx512Kernels {
  // max(a, b), in the zero-masked form: the plain one starts from an undefined register that
  // GCC 12 reports as uninitialised.
  MENISCUS_KDTREE_AVX512_TARGET static __m512 max(__m512 a, __m512 b) {
    return _mm512_maskz_max_ps(__mmask16(0xFFFF), a, b);
  }
  MENISCUS_KDTREE_AVX512_TARGET static __m512 axis_gap(float lo, float hi, const float* x) {
    const __m512 q = _mm512_load_ps(x);
    return max(max(_mm512_sub_ps(_mm512_set1_ps(lo), q), _mm512_sub_ps(q, _mm512_set1_ps(hi))), _mm512_setzero_ps());
  }
  MENISCUS_KDTREE_AVX512_TARGET static uint32_t lanes_reaching(const KdNode& node, const QueryPacket& q,
                                                               const float* prune) {
    static_assert(kPacketSize == 16, "one 512-bit register of lanes");
    const __m512 dx = axis_gap(node.lo[0], node.hi[0], q.x);
    const __m512 dy = axis_gap(node.lo[1], node.hi[1], q.y);
    const __m512 dz = axis_gap(node.lo[2], node.hi[2], q.z);
    const __m512 d2 = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)), _mm512_mul_ps(dz, dz));
    return uint32_t(_mm512_cmp_ps_mask(d2, _mm512_load_ps(prune), _CMP_LE_OQ));
  }
  MENISCUS_KDTREE_AVX512_TARGET static uint32_t batch_within(const float* px, const float* py, const float* pz,
                                                             uint32_t n, float x, float y, float z, float limit,
                                                             float* d2) {
    const __m512 qx = _mm512_set1_ps(x), qy = _mm512_set1_ps(y), qz = _mm512_set1_ps(z), lim = _mm512_set1_ps(limit);
    uint32_t mask = 0;
    for (uint32_t j = 0; j < n; j += 16) {
      // Past n the loads read nothing (masked) and the lanes do not count.
      const __mmask16 valid = n - j >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - j)) - 1u);
      const __m512 dx = _mm512_sub_ps(_mm512_maskz_loadu_ps(valid, px + j), qx);
      const __m512 dy = _mm512_sub_ps(_mm512_maskz_loadu_ps(valid, py + j), qy);
      const __m512 dz = _mm512_sub_ps(_mm512_maskz_loadu_ps(valid, pz + j), qz);
      const __m512 d =
          _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy)), _mm512_mul_ps(dz, dz));
      _mm512_store_ps(d2 + j, d);
      mask |= uint32_t(_mm512_mask_cmp_ps_mask(valid, d, lim, _CMP_LE_OQ)) << j;
    }
    return mask;
  }
  using List = ListInMemory<offer_neighbour_avx512>;
};
#endif

template <class Kernels>
void walk(const KdTree& tree, const QueryPacket& q, uint32_t k, SearchScratch& scratch, PacketScratch& lists) {
  const KdNode* nodes = tree.nodes.data();
  const float *px = tree.x.data(), *py = tree.y.data(), *pz = tree.z.data();
  const uint32_t* ids = tree.ids.data();
  uint32_t* stack = scratch.stack.data();

  // Per lane: `limit`, points farther are not kept; `prune`, boxes farther are skipped. Unused
  // lanes get a negative radius that no box distance passes.
  alignas(64) float limit[kPacketSize], prune[kPacketSize];
  float cx = 0.0f, cy = 0.0f, cz = 0.0f;
  for (uint32_t l = 0; l < kPacketSize; ++l) {
    lists.found[l] = 0;
    lists.best.clear(l);
    limit[l] = prune[l] = l < q.count ? widened(std::max(q.r0[l], 0.0f)) : -1.0f;
    if (l < q.count) {
      cx += q.x[l];
      cy += q.y[l];
      cz += q.z[l];
    }
  }
  const float centre[3] = {cx / float(q.count), cy / float(q.count), cz / float(q.count)};

  uint64_t tested = 0, visited = 0;
  alignas(64) float d2[kLeafBatch];
  int top = 0;
  uint32_t i = 0;
  for (;;) {
    const KdNode& node = nodes[i];
    ++visited;
    const uint32_t reach = Kernels::lanes_reaching(node, q, prune);
    if (reach) {
      if (node.axis != kLeafAxis) {
        const bool left_near = centre[node.axis] < node.split;
        stack[top++] = left_near ? node.index : i + 1;
        i = left_near ? i + 1 : node.index;
        continue;
      }
      const uint32_t end = node.index + node.count;
      for (uint32_t lanes = reach; lanes; lanes &= lanes - 1) {
        const uint32_t l = uint32_t(lowest_bit32(lanes));
        typename Kernels::List list(lists.best.row_d2(l), lists.best.row_ids(l), k);
        uint32_t found = lists.found[l];
        float lim = limit[l];
        tested += node.count;
        for (uint32_t b = node.index; b < end; b += kLeafBatch) {
          const uint32_t n = std::min(kLeafBatch, end - b);
          // The limit shrinks as the list fills, after the mask was taken: a point beyond it
          // by then leaves the list as it is.
          for (uint32_t within = Kernels::batch_within(px + b, py + b, pz + b, n, q.x[l], q.y[l], q.z[l], lim, d2);
               within; within &= within - 1) {
            const uint32_t j = uint32_t(lowest_bit32(within));
            list.offer(d2[j], ids[b + j]);
            found += found < k;
            if (found == k) lim = list.kth();
          }
        }
        list.store();
        lists.found[l] = found;
        limit[l] = lim;
        if (found == k) prune[l] = prune_bound(lim);
      }
    }
    if (top == 0) break;
    i = stack[--top];
  }
  scratch.points_tested += tested;
  scratch.nodes_visited += visited;
}

void walk_baseline(const KdTree& tree, const QueryPacket& q, uint32_t k, SearchScratch& scratch, PacketScratch& lists) {
  walk<BaselineKernels>(tree, q, k, scratch, lists);
}

#if defined(MENISCUS_KDTREE_AVX512)
// Everything the walk calls is inlined here, where AVX2 is enabled.
MENISCUS_KDTREE_AVX2_TARGET __attribute__((flatten)) void walk_avx2(const KdTree& tree, const QueryPacket& q,
                                                                    uint32_t k, SearchScratch& scratch,
                                                                    PacketScratch& lists) {
  if (k <= kListBlock)
    walk<Avx2Kernels>(tree, q, k, scratch, lists);
  else
    walk<Avx2LongListKernels>(tree, q, k, scratch, lists);
}

// Everything the walk calls is inlined here, where AVX-512 is enabled.
MENISCUS_KDTREE_AVX512_TARGET __attribute__((flatten)) void walk_avx512(const KdTree& tree, const QueryPacket& q,
                                                                        uint32_t k, SearchScratch& scratch,
                                                                        PacketScratch& lists) {
  walk<Avx512Kernels>(tree, q, k, scratch, lists);
}
#endif

using Walk = void (*)(const KdTree&, const QueryPacket&, uint32_t, SearchScratch&, PacketScratch&);

struct WalkChoice {
  Walk walk;
  const char* name;
};

#if defined(__SSE2__)
constexpr WalkChoice kBaseline{walk_baseline, "sse2"};
#else
constexpr WalkChoice kBaseline{walk_baseline, "scalar"};
#endif

const WalkChoice& choice(KnnKernels kernels) {
  static const WalkChoice fastest = [] {
#if defined(MENISCUS_KDTREE_AVX512)
    if (__builtin_cpu_supports("avx512f")) return WalkChoice{walk_avx512, "avx512"};
    if (__builtin_cpu_supports("avx2")) return WalkChoice{walk_avx2, "avx2"};
#endif
    return kBaseline;
  }();
  return kernels == KnnKernels::kBaseline ? kBaseline : fastest;
}

}  // namespace

const char* knn_kernels_name(KnnKernels kernels) { return choice(kernels).name; }

void search_knn_packet(const KdTree& tree, const QueryPacket& q, uint32_t k, KnnKernels kernels, SearchScratch& scratch,
                       PacketScratch& lists, uint32_t* const* indices, float* const* distances) {
  choice(kernels).walk(tree, q, k, scratch, lists);

  for (uint32_t l = 0; l < q.count; ++l) {
    if (lists.found[l] < k) {
      // r0 held too few points (or rounding kept one out): the single search grows it.
      search_knn(tree, q.x[l], q.y[l], q.z[l], q.r0[l], k, scratch, indices[l], distances[l]);
      continue;
    }
    for (uint32_t j = 0; j < k; ++j) {
      indices[l][j] = lists.best.index(l, j);
      distances[l][j] = std::sqrt(lists.best.distance2(l, j));
    }
  }
}

}  // namespace meniscus::sim::kdtree
