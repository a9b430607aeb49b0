// build_triangle_kdtree (triangle_kdtree.h): the large-node stage level by level, each level's
// nodes in parallel; the small-node stage per small root in parallel; then preorder output.
// Every decision depends on the node alone, and children are numbered after each parallel
// step in node order, so the tree does not depend on the thread count.
#include "sim/kdtree/triangle_kdtree.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_clip.h"
#include "sim/kdtree/triangle_kdtree_build.h"

namespace meniscus::sim::kdtree {
namespace {

using Clock = std::chrono::steady_clock;

// A node of the large-node stage: its triangles with their boxes clipped to it.
struct LargeNode {
  uint32_t id = 0;  // in the build's node vector
  uint32_t depth = 0;
  std::vector<uint32_t> triangles;
  std::vector<Box> clipped;
};

// Where a large node goes: a leaf, or a split into two child nodes (their triangles clipped).
struct LargeSplit {
  bool leaf = true;
  uint32_t axis = 0;
  float split = 0.0f;
  Box left_box, right_box;
  LargeNode left, right;
};

// One split of a large node (Algorithm 2): empty space beyond C_e on a side is cut off first
// (the empty child is a leaf), else the spatial median of the longest axis of the node's box.
LargeSplit split_large(const LargeNode& node, const Box& box, const std::vector<TriangleCorners>& corners,
                       const TriangleKdParams& params) {
  LargeSplit out;
  if (node.depth >= params.max_depth) return out;
  Box tight = node.clipped[0];
  for (const Box& b : node.clipped) tight.grow(b);

  float best_empty = params.empty_space_ratio;
  int empty_axis = -1;
  bool empty_upper = false;
  for (int axis = 0; axis < 3; ++axis) {
    const float extent = box.extent(axis);
    if (extent <= 0.0f) continue;
    const float below = (tight.lo[axis] - box.lo[axis]) / extent, above = (box.hi[axis] - tight.hi[axis]) / extent;
    if (below > best_empty) best_empty = below, empty_axis = axis, empty_upper = false;
    if (above > best_empty) best_empty = above, empty_axis = axis, empty_upper = true;
  }
  out.left_box = out.right_box = box;
  if (empty_axis >= 0) {
    out.axis = uint32_t(empty_axis);
    out.split = empty_upper ? tight.hi[empty_axis] : tight.lo[empty_axis];
  } else {
    int longest = 0;
    for (int axis = 1; axis < 3; ++axis)
      if (box.extent(axis) > box.extent(longest)) longest = axis;
    out.axis = uint32_t(longest);
    out.split = 0.5f * (box.lo[longest] + box.hi[longest]);
    if (!(out.split > box.lo[longest] && out.split < box.hi[longest])) return out;  // no room left
  }
  const int a = int(out.axis);
  out.left_box.hi[a] = out.split;
  out.right_box.lo[a] = out.split;
  out.left.depth = out.right.depth = node.depth + 1;
  for (size_t i = 0; i < node.triangles.size(); ++i) {
    const uint32_t t = node.triangles[i];
    const Box& b = node.clipped[i];
    // A triangle lying flat in the plane goes left, except at an empty-space cut below it: there
    // it belongs to the non-empty side, and sending it into the empty child would hand that child
    // the whole node again, level after level down to max_depth.
    const bool planar_on_split = b.lo[a] == out.split && b.hi[a] == out.split;
    const bool planar_left = empty_axis < 0 || empty_upper;
    const bool to_left = b.lo[a] < out.split || (planar_on_split && planar_left);
    const bool to_right = b.hi[a] > out.split || (planar_on_split && !planar_left);
    Box clipped;
    if (to_left && (!to_right || clipped_bounds(corners[t].a, corners[t].b, corners[t].c, out.left_box, clipped))) {
      out.left.triangles.push_back(t);
      out.left.clipped.push_back(to_right ? clipped : b);
    }
    if (to_right && (!to_left || clipped_bounds(corners[t].a, corners[t].b, corners[t].c, out.right_box, clipped))) {
      out.right.triangles.push_back(t);
      out.right.clipped.push_back(to_left ? clipped : b);
    }
  }
  // A split that leaves every triangle on both sides gains nothing (coincident triangles).
  const size_t n = node.triangles.size();
  if (empty_axis < 0 && out.left.triangles.size() == n && out.right.triangles.size() == n) return out;
  out.leaf = false;
  return out;
}

// The exact-SAH subtree of a small root (Algorithm 4): triangle sets as masks of the root's at
// most 64 triangles; split candidates the faces of their boxes at the root.
class SmallRoot {
 public:
  SmallRoot(const LargeNode& root, const Box& box, const TriangleKdParams& params)
      : triangles_(root.triangles), params_(params), n_(uint32_t(root.triangles.size())) {
    // Candidate (axis, triangle i, face k) sits at (axis * n + i) * 2 + k. Its left set is the
    // triangles starting below it (plus those lying flat in its plane), its right set those
    // ending above it: prefix masks over the triangles sorted by their box's low and high ends,
    // taken where a sweep of the candidates in ascending order stands in each sorted list.
    candidates_.resize(size_t(6) * n_);
    std::vector<uint32_t> by_lo(n_), by_hi(n_);
    std::vector<float> lo(n_), hi(n_);
    std::vector<uint64_t> below(n_ + 1), above(n_ + 1);
    for (uint32_t axis = 0; axis < 3; ++axis) {
      for (uint32_t i = 0; i < n_; ++i) lo[i] = root.clipped[i].lo[axis], hi[i] = root.clipped[i].hi[axis];
      std::iota(by_lo.begin(), by_lo.end(), 0u);
      std::iota(by_hi.begin(), by_hi.end(), 0u);
      std::sort(by_lo.begin(), by_lo.end(), [&](uint32_t a, uint32_t b) { return lo[a] < lo[b]; });
      std::sort(by_hi.begin(), by_hi.end(), [&](uint32_t a, uint32_t b) { return hi[a] > hi[b]; });
      for (uint32_t k = 0; k < n_; ++k) {
        below[k + 1] = below[k] | uint64_t(1) << by_lo[k];  // the k + 1 lowest starts
        above[k + 1] = above[k] | uint64_t(1) << by_hi[k];  // the k + 1 highest ends
      }
      // The triangles lying flat in the plane at `position`, from the first starting there.
      const auto flat_at = [&](uint32_t first_start, float position) {
        uint64_t flat = 0;
        for (uint32_t k = first_start; k < n_ && lo[by_lo[k]] == position; ++k)
          if (hi[by_lo[k]] == position) flat |= uint64_t(1) << by_lo[k];
        return flat;
      };
      const auto add = [&](uint32_t i, uint32_t face, float position, uint32_t starts, uint32_t ends) {
        candidates_[(size_t(axis) * n_ + i) * 2 + face] = {axis, position, below[starts] | flat_at(starts, position),
                                                           above[ends]};
      };
      // The low faces in ascending order: `starts` (lo < p) is where p's run of equal lows
      // begins; `ends` (hi > p) shrinks from the back of by_hi, which descends.
      uint32_t run = 0, ends = n_;
      for (uint32_t k = 0; k < n_; ++k) {
        const float position = lo[by_lo[k]];
        if (k > 0 && position != lo[by_lo[k - 1]]) run = k;
        while (ends > 0 && hi[by_hi[ends - 1]] <= position) --ends;
        add(by_lo[k], 0, position, run, ends);
      }
      // The high faces in ascending order (by_hi backwards): `ends` is where p's run of equal
      // highs begins in by_hi; `starts` grows along by_lo.
      uint32_t starts = 0;
      for (uint32_t k = n_; k-- > 0;) {
        const float position = hi[by_hi[k]];
        uint32_t first = k;
        while (first > 0 && hi[by_hi[first - 1]] == position) --first;
        while (starts < n_ && lo[by_lo[starts]] < position) ++starts;
        add(by_hi[k], 1, position, starts, first);
      }
    }
    const uint64_t all = n_ == 64 ? ~uint64_t(0) : (uint64_t(1) << n_) - 1;
    build(box, all, root.depth);
  }

  // The subtree, root first, children by index into this vector.
  std::vector<TriangleBuildNode> nodes;

 private:
  struct Candidate {
    uint32_t axis;
    float position;
    uint64_t left, right;
  };

  uint32_t build(const Box& box, uint64_t set, uint32_t depth) {
    const uint32_t id = uint32_t(nodes.size());
    nodes.push_back({box});
    const float count = float(std::popcount(set));
    const float area = box.half_area();
    const Candidate* best = nullptr;
    float best_cost = count;  // SAH_0: the node as a leaf
    if (set != 0 && area > 0.0f && depth < params_.max_depth) {
      // Only the faces of the node's own triangles, in the order axis, triangle, face.
      for (uint32_t axis = 0; axis < 3; ++axis) {
        for (uint64_t bits = set; bits; bits &= bits - 1) {
          const size_t first = (size_t(axis) * n_ + uint32_t(std::countr_zero(bits))) * 2;
          for (const Candidate* c = &candidates_[first]; c != &candidates_[first] + 2; ++c) {
            if (!(c->position > box.lo[axis] && c->position < box.hi[axis])) continue;
            Box l = box, r = box;
            l.hi[axis] = c->position;
            r.lo[axis] = c->position;
            const float cost = (float(std::popcount(set & c->left)) * l.half_area() +
                                float(std::popcount(set & c->right)) * r.half_area()) / area +
                               params_.traversal_cost;
            if (cost < best_cost) best_cost = cost, best = c;
          }
        }
      }
    }
    if (!best) {
      for (size_t i = 0; i < triangles_.size(); ++i)
        if (set >> i & 1u) nodes[id].triangles.push_back(triangles_[i]);
      std::sort(nodes[id].triangles.begin(), nodes[id].triangles.end());
      return id;
    }
    const Candidate c = *best;
    Box l = box, r = box;
    l.hi[c.axis] = c.position;
    r.lo[c.axis] = c.position;
    nodes[id].axis = c.axis;
    nodes[id].split = c.position;
    const uint32_t left = build(l, set & c.left, depth + 1);
    const uint32_t right = build(r, set & c.right, depth + 1);
    nodes[id].left = left;
    nodes[id].right = right;
    return id;
  }

  std::vector<uint32_t> triangles_;
  TriangleKdParams params_;
  uint32_t n_;
  std::vector<Candidate> candidates_;
};

void validate(const TriangleKdParams& params) {
  if (params.large_node_triangles < 1 || params.large_node_triangles > 64)
    throw InputError("triangle kd-tree: large_node_triangles must be in [1, 64] (small roots are 64-bit masks)");
  if (!(params.empty_space_ratio > 0.0f && params.empty_space_ratio < 1.0f))
    throw InputError("triangle kd-tree: empty_space_ratio must be in (0, 1)");
  if (!(params.traversal_cost >= 0.0f && std::isfinite(params.traversal_cost)))
    throw InputError("triangle kd-tree: traversal_cost must be finite and >= 0");
}

}  // namespace

TriangleKdTree build_triangle_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params) {
  validate(params);
  const Clock::time_point start = Clock::now();
  TriangleInput input = gather_triangles(vertices, indices);
  TriangleKdTree tree;
  tree.stats.skipped = input.skipped;
  tree.stats.triangles = uint32_t(input.usable.size());
  if (input.usable.empty()) return tree;
  const std::vector<TriangleCorners>& corners = input.corners;
  const Box root_box = input.bounds;
  LargeNode root;
  root.triangles = input.usable;
  root.clipped = input.boxes;

  std::vector<TriangleBuildNode> build{{root_box}};
  std::vector<LargeNode> active, small;
  (root.triangles.size() > params.large_node_triangles ? active : small).push_back(std::move(root));

  // Large-node stage, a level at a time.
  while (!active.empty()) {
    ++tree.stats.large_levels;
    std::vector<LargeSplit> splits(active.size());
    tbb::parallel_for(size_t(0), active.size(), [&](size_t i) {
      splits[i] = split_large(active[i], build[active[i].id].box, corners, params);
    });
    std::vector<LargeNode> next;
    for (size_t i = 0; i < active.size(); ++i) {
      LargeSplit& s = splits[i];
      const uint32_t parent = active[i].id;
      if (s.leaf) {
        build[parent].triangles = active[i].triangles;
        std::sort(build[parent].triangles.begin(), build[parent].triangles.end());
        continue;
      }
      s.left.id = uint32_t(build.size());
      s.right.id = s.left.id + 1;
      build[parent].axis = s.axis;
      build[parent].split = s.split;
      build[parent].left = s.left.id;
      build[parent].right = s.right.id;
      build.push_back({s.left_box});
      build.push_back({s.right_box});
      for (LargeNode* child : {&s.left, &s.right}) {
        if (child->triangles.empty()) continue;  // an empty leaf
        (child->triangles.size() > params.large_node_triangles ? next : small).push_back(std::move(*child));
      }
    }
    active = std::move(next);
  }

  // Small-node stage, each small root's subtree on its own.
  tree.stats.small_roots = uint32_t(small.size());
  std::vector<std::vector<TriangleBuildNode>> subtrees(small.size());
  tbb::parallel_for(size_t(0), small.size(), [&](size_t i) {
    subtrees[i] = SmallRoot(small[i], build[small[i].id].box, params).nodes;
  });
  for (size_t i = 0; i < small.size(); ++i) {
    // The subtree's root replaces the small root's node; the rest is appended, re-indexed.
    const uint32_t base = uint32_t(build.size()) - 1;  // subtree index k > 0 lands at base + k
    std::vector<TriangleBuildNode>& sub = subtrees[i];
    for (TriangleBuildNode& n : sub)
      if (n.axis != kTriangleLeaf) {  // children are never the subtree's root (index 0)
        n.left += base;
        n.right += base;
      }
    build[small[i].id] = std::move(sub[0]);
    for (size_t k = 1; k < sub.size(); ++k) build.push_back(std::move(sub[k]));
  }

  write_tree(build, input, params.traversal_cost, tree);
  tree.stats.build_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return tree;
}

}  // namespace meniscus::sim::kdtree
