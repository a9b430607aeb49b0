#pragma once
// The decisions of the kd-tree build and search that the CPU and CUDA backends must take
// identically (Zhou et al. 2008, §3 and §5): the large-node split (empty-space cutting, then the
// spatial median of the longest axis), the VVH cost of a small-node split, the box-ball distance
// and the Morton code that orders queries. Plain structs and inline functions compiled by both
// g++ and nvcc; the .cu files are built without fused multiply-adds so every float is rounded as
// it is here.
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define KD_HD __host__ __device__
#else
#define KD_HD
#endif

namespace meniscus::sim::kdtree {

// T: a node with at most this many points is small. 32 (the paper's value for point trees) lets
// a small node's point set be one 32-bit mask over its small root's points.
inline constexpr uint32_t kSmallNodeMax = 32;
// N: points per chunk in the large-node stage's reductions and list split.
inline constexpr uint32_t kChunkSize = 256;
// C_e for point trees (§5.1): empty space beyond this fraction of a side is cut off.
inline constexpr float kEmptySpaceRatio = 0.1f;
// Axis value marking a leaf in nodes.
inline constexpr uint32_t kLeafAxis = 3;

struct Aabb {
  float lo[3];
  float hi[3];
};

// One node in preorder: an inner node's left child follows it, its right child is `index`.
// Boxes are the tight bounds of the node's points (what range searches prune with); cells
// (what the splits divide) are a build-time notion and not kept.
struct KdNode {
  float lo[3];
  float hi[3];
  float split;     // inner: points with coordinate < split are on the left
  uint32_t axis;   // 0..2, or kLeafAxis
  uint32_t index;  // inner: right child; leaf: first point in the tree's point order
  uint32_t count;  // points in the subtree
};
static_assert(sizeof(KdNode) == 40);

KD_HD inline Aabb empty_box() {
  const float big = 3.402823466e38f;
  return Aabb{{big, big, big}, {-big, -big, -big}};
}

KD_HD inline void grow(Aabb& box, float x, float y, float z) {
  box.lo[0] = x < box.lo[0] ? x : box.lo[0];
  box.lo[1] = y < box.lo[1] ? y : box.lo[1];
  box.lo[2] = z < box.lo[2] ? z : box.lo[2];
  box.hi[0] = x > box.hi[0] ? x : box.hi[0];
  box.hi[1] = y > box.hi[1] ? y : box.hi[1];
  box.hi[2] = z > box.hi[2] ? z : box.hi[2];
}

KD_HD inline void merge(Aabb& box, const Aabb& other) {
  for (int a = 0; a < 3; ++a) {
    box.lo[a] = other.lo[a] < box.lo[a] ? other.lo[a] : box.lo[a];
    box.hi[a] = other.hi[a] > box.hi[a] ? other.hi[a] : box.hi[a];
  }
}

// Squared distance from (x, y, z) to the box; 0 inside.
KD_HD inline float box_distance2(const float* lo, const float* hi, float x, float y, float z) {
  const float dx = x < lo[0] ? lo[0] - x : (x > hi[0] ? x - hi[0] : 0.0f);
  const float dy = y < lo[1] ? lo[1] - y : (y > hi[1] ? y - hi[1] : 0.0f);
  const float dz = z < lo[2] ? lo[2] - z : (z > hi[2] ? z - hi[2] : 0.0f);
  return dx * dx + dy * dy + dz * dz;
}

// Squared distance from (x, y, z) to the box's farthest corner: a ball that large around the
// point holds every point of the box.
KD_HD inline float farthest_distance2(const float* lo, const float* hi, float x, float y, float z) {
  const float q[3] = {x, y, z};
  float d2 = 0.0f;
  for (int a = 0; a < 3; ++a) {
    const float below = q[a] - lo[a], above = q[a] - hi[a];
    const float to_lo = below < 0.0f ? -below : below, to_hi = above < 0.0f ? -above : above;
    const float d = to_lo > to_hi ? to_lo : to_hi;
    d2 += d * d;
  }
  return d2;
}

// For a query that need not be one of the points, where ESTIMATERADIUS has no bound (no node
// on its path has a radius: its leaves are larger than alpha R, the points sparser there than R
// says, as on a floor cell beyond a caustic): the farthest corner of the deepest node on its
// path holding at least k points, which holds them; `none` when the tree holds fewer than k.
KD_HD inline float holding_k_radius(const KdNode* nodes, uint32_t k, float x, float y, float z, float none) {
  uint32_t i = 0, holding_k = UINT32_MAX;
  for (;;) {
    const KdNode& node = nodes[i];
    if (node.count < k) break;  // nor will any below it
    holding_k = i;
    if (node.axis == kLeafAxis) break;
    const float q = node.axis == 0 ? x : (node.axis == 1 ? y : z);
    i = q < node.split ? i + 1 : node.index;
  }
  if (holding_k == UINT32_MAX) return none;
  const KdNode& n = nodes[holding_k];
  return sqrtf(farthest_distance2(n.lo, n.hi, x, y, z));
}

// Point distances are formed from coordinate differences, never from recentred coordinates: a
// difference of two floats is rounded once, so distances keep their relative precision at any
// offset (1e6 included) and brute force computes the very same numbers.
KD_HD inline float distance2(float ax, float ay, float az, float bx, float by, float bz) {
  const float dx = ax - bx, dy = ay - by, dz = az - bz;
  return dx * dx + dy * dy + dz * dz;
}

// One large node's split (§3.1 with C_e of §5.1). Sides of the cell with more than C_e empty
// space are cut to the points' tight box; then the cell is split at the spatial median of its
// longest axis. A median that would leave one side empty is itself an empty-space cut: that axis
// is cut to the tight box and the median taken again ("repeatedly split using empty space
// splitting until a spatial median split is reached"). The cuts are kept as the node's
// tightened cell instead of as empty leaf nodes, which a query never needs to visit. Points with
// coordinate < position go left, the others right. `leaf` when no axis separates the points
// (all equal, or a spread of one float step): such a node stays a leaf whatever its size.
struct LargeSplit {
  Aabb cell;  // the node's cell after empty-space cuts; children split it at `position`
  uint32_t axis;
  float position;
  bool leaf;
};

KD_HD inline LargeSplit choose_large_split(const Aabb& cell, const Aabb& tight) {
  LargeSplit s{cell, kLeafAxis, 0.0f, true};
  for (int a = 0; a < 3; ++a) {
    const float extent = cell.hi[a] - cell.lo[a];
    if (tight.lo[a] - cell.lo[a] > kEmptySpaceRatio * extent) s.cell.lo[a] = tight.lo[a];
    if (cell.hi[a] - tight.hi[a] > kEmptySpaceRatio * extent) s.cell.hi[a] = tight.hi[a];
  }
  bool dead[3] = {false, false, false};  // axes along which no median separates the points
  for (int attempt = 0; attempt < 6; ++attempt) {
    int axis = -1;
    float longest = 0.0f;
    for (int a = 0; a < 3; ++a) {
      const float extent = s.cell.hi[a] - s.cell.lo[a];
      if (!dead[a] && extent > longest) {
        longest = extent;
        axis = a;
      }
    }
    if (axis < 0) return s;
    const float position = s.cell.lo[axis] + 0.5f * longest;
    if (tight.lo[axis] < position && position <= tight.hi[axis]) {
      s.axis = uint32_t(axis);
      s.position = position;
      s.leaf = false;
      return s;
    }
    if (s.cell.lo[axis] == tight.lo[axis] && s.cell.hi[axis] == tight.hi[axis]) {
      dead[axis] = true;
    } else {
      s.cell.lo[axis] = tight.lo[axis];
      s.cell.hi[axis] = tight.hi[axis];
    }
  }
  return s;
}

// V(d ± R): the cell's volume with every side pushed out by R (§5.1).
KD_HD inline float extended_volume(const Aabb& cell, float radius) {
  return (cell.hi[0] - cell.lo[0] + 2.0f * radius) * (cell.hi[1] - cell.lo[1] + 2.0f * radius) *
         (cell.hi[2] - cell.lo[2] + 2.0f * radius);
}

// VVH(x) = C_ts + C_L V(d_L ± R) / V(d ± R) + C_R V(d_R ± R) / V(d ± R), for the split of `cell`
// at `position` on `axis` with `left` and `right` points on either side.
KD_HD inline float vvh_cost(const Aabb& cell, uint32_t axis, float position, uint32_t left, uint32_t right,
                            float radius, float traversal_cost, float parent_volume) {
  Aabb l = cell, r = cell;
  l.hi[axis] = position;
  r.lo[axis] = position;
  return traversal_cost + (float(left) * extended_volume(l, radius) + float(right) * extended_volume(r, radius)) /
                              parent_volume;
}

// The cube root of x > 0 by Newton's method from a power-of-two start, in IEEE +, *, / only, so
// that both backends round it alike (the host's and the device's cbrt may differ in the last
// bit, and R decides splits).
KD_HD inline double cube_root(double x) {
  int exponent = 0;
  frexp(x, &exponent);  // x = m 2^e, m in [0.5, 1)
  double y = ldexp(1.0, exponent / 3);
  for (int i = 0; i < 3 && y * y * y < x; ++i) y *= 2.0;           // a start above the root: Newton falls from there
  for (int i = 0; i < 10; ++i) y = (2.0 * y + x / (y * y)) / 3.0;  // from under 2.5x the root: full precision
  return y;
}

// One small root's say in R (Appendix A): the radius that holds k of its n points at its density,
// measured in as many dimensions as its points span (a sample of a surface is dense in two, not
// in three); -1 when it says nothing (fewer than two points, or all of them coincide).
KD_HD inline double small_root_radius(const Aabb& box, uint32_t n, uint32_t k) {
  if (n < 2) return -1.0;
  double e[3];
  for (int a = 0; a < 3; ++a) e[a] = double(box.hi[a]) - double(box.lo[a]);
  for (int i = 0; i < 2; ++i)  // largest first
    for (int j = 0; j < 2 - i; ++j)
      if (e[j] < e[j + 1]) {
        const double t = e[j];
        e[j] = e[j + 1];
        e[j + 1] = t;
      }
  if (!(e[0] > 0.0)) return -1.0;
  // Extents under a fifth of the largest are a thin layer, not a dimension: median splits keep
  // cells within 2:1, so a root spanning a volume never has one that thin.
  const int dims = 1 + (e[1] >= 0.2 * e[0]) + (e[1] >= 0.2 * e[0] && e[2] >= 0.2 * e[0]);
  const double pi = 3.141592653589793, count = n, kk = k;
  if (dims == 3) return cube_root(3.0 * kk * e[0] * e[1] * e[2] / (4.0 * pi * count));
  if (dims == 2) return sqrt(kk * e[0] * e[1] / (pi * count));
  return kk * e[0] / (2.0 * count);
}

KD_HD inline int popcount32(uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __popc(v);
#else
  return __builtin_popcount(v);
#endif
}

KD_HD inline int lowest_bit32(uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __ffs(v) - 1;
#else
  return __builtin_ctz(v);
#endif
}

// 10 bits per axis, interleaved: the Morton code of a point normalised to the box.
KD_HD inline uint32_t spread_bits10(uint32_t v) {
  v &= 0x3ffu;
  v = (v | (v << 16)) & 0x030000ffu;
  v = (v | (v << 8)) & 0x0300f00fu;
  v = (v | (v << 4)) & 0x030c30c3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

KD_HD inline uint32_t morton_code(const Aabb& box, float x, float y, float z) {
  const float p[3] = {x, y, z};
  uint32_t cell[3];
  for (int a = 0; a < 3; ++a) {
    const float extent = box.hi[a] - box.lo[a];
    float t = extent > 0.0f ? (p[a] - box.lo[a]) / extent : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    cell[a] = uint32_t(t * 1023.0f);
  }
  return (spread_bits10(cell[2]) << 2) | (spread_bits10(cell[1]) << 1) | spread_bits10(cell[0]);
}

}  // namespace meniscus::sim::kdtree
