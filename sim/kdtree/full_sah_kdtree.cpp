// build_full_sah_kdtree (full_sah_kdtree.h).
#include "sim/kdtree/full_sah_kdtree.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_kdtree_build.h"

namespace meniscus::sim::kdtree {
namespace {

// A node's triangles with their boxes clipped to it.
struct SahNode {
  Box box;
  uint32_t depth = 0;
  std::vector<uint32_t> triangles;
  std::vector<Box> clipped;
};

struct Split {
  uint32_t axis = 0;
  float position = 0.0f;
  float cost = INFINITY;
  bool planar_left = true;  // where the triangles lying flat in the plane go
};

// Where a clipped box meets an axis: its end, a flat box lying in the plane, or its start.
// Sorted by position, ends before planes before starts, the sweep below counts each side.
struct Event {
  float position;
  uint8_t type;  // 0 end, 1 planar, 2 start
  bool operator<(const Event& o) const { return position < o.position || (position == o.position && type < o.type); }
};

// The best split of `node` by the exact SAH, with the conventions of the small-node stage
// (small_triangle_root.h): a triangle goes left when its box starts below the plane (or lies
// flat in it), right when it ends above it; a plane on the node's own face is a candidate only
// to set the triangles lying flat in it apart in a flat child.
Split best_split(const SahNode& node, float traversal_cost) {
  Split best;
  const float area = node.box.half_area();
  if (!(area > 0.0f)) return best;
  const size_t n = node.triangles.size();
  std::vector<Event> events;
  for (uint32_t axis = 0; axis < 3; ++axis) {
    events.clear();
    for (const Box& b : node.clipped) {
      if (b.lo[axis] == b.hi[axis]) {
        events.push_back({b.lo[axis], 1});
      } else {
        events.push_back({b.lo[axis], 2});
        events.push_back({b.hi[axis], 0});
      }
    }
    std::sort(events.begin(), events.end());
    size_t left = 0, right = n;
    for (size_t i = 0; i < events.size();) {
      const float p = events[i].position;
      size_t ends = 0, planar = 0, starts = 0;
      for (; i < events.size() && events[i].position == p && events[i].type == 0; ++i) ++ends;
      for (; i < events.size() && events[i].position == p && events[i].type == 1; ++i) ++planar;
      for (; i < events.size() && events[i].position == p && events[i].type == 2; ++i) ++starts;
      right -= planar + ends;
      const float lo = node.box.lo[axis], hi = node.box.hi[axis];
      const bool upper_face = p == hi && p > lo, lower_face = p == lo && p < hi;
      if ((p > lo && p < hi) || ((upper_face || lower_face) && planar > 0)) {
        Box l = node.box, r = node.box;
        l.hi[axis] = p;
        r.lo[axis] = p;
        const size_t on_left = upper_face ? left : left + planar, on_right = upper_face ? right + planar : right;
        const float cost = traversal_cost + (float(on_left) * l.half_area() + float(on_right) * r.half_area()) / area;
        if (cost < best.cost) best = {axis, p, cost, !upper_face};
      }
      left += starts + planar;
    }
  }
  return best;
}

class FullSahBuilder {
 public:
  FullSahBuilder(const TriangleInput& input, const TriangleKdParams& params) : input_(input), params_(params) {}

  uint32_t build(SahNode node) {
    const uint32_t id = uint32_t(nodes.size());
    nodes.emplace_back();
    const Split split =
        node.depth < params_.max_depth && !node.triangles.empty() ? best_split(node, params_.traversal_cost) : Split{};
    if (!(split.cost < float(node.triangles.size()))) {  // the leaf is as cheap: SAH_0 = its count
      nodes[id].triangles = std::move(node.triangles);
      std::sort(nodes[id].triangles.begin(), nodes[id].triangles.end());
      return id;
    }
    const int a = int(split.axis);
    SahNode left, right;
    left.box = right.box = node.box;
    left.box.hi[a] = right.box.lo[a] = split.position;
    left.depth = right.depth = node.depth + 1;
    for (size_t i = 0; i < node.triangles.size(); ++i) {
      const uint32_t t = node.triangles[i];
      const Box& b = node.clipped[i];
      const bool planar = b.lo[a] == split.position && b.hi[a] == split.position;
      const bool to_left = b.lo[a] < split.position || (planar && split.planar_left);
      const bool to_right = b.hi[a] > split.position || (planar && !split.planar_left);
      const TriangleCorners& c = input_.corners[t];
      Box clipped;
      if (to_left && (!to_right || clipped_bounds(c.a, c.b, c.c, left.box, clipped))) {
        left.triangles.push_back(t);
        left.clipped.push_back(to_right ? clipped : b);
      }
      if (to_right && (!to_left || clipped_bounds(c.a, c.b, c.c, right.box, clipped))) {
        right.triangles.push_back(t);
        right.clipped.push_back(to_left ? clipped : b);
      }
    }
    node = {};  // free the parent's lists before the children's subtrees grow
    nodes[id].axis = split.axis;
    nodes[id].split = split.position;
    const uint32_t l = build(std::move(left));
    const uint32_t r = build(std::move(right));
    nodes[id].left = l;
    nodes[id].right = r;
    return id;
  }

  std::vector<TriangleBuildNode> nodes;

 private:
  const TriangleInput& input_;
  TriangleKdParams params_;
};

}  // namespace

TriangleKdTree build_full_sah_kdtree(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                                     const TriangleKdParams& params) {
  validate_triangle_kd_params(params);  // max_depth bounds the traversal's stack
  const auto start = std::chrono::steady_clock::now();
  TriangleInput input;
  gather_triangles(vertices, indices, input);
  TriangleKdTree tree;
  tree.stats.skipped = input.skipped;
  tree.stats.triangles = uint32_t(input.usable.size());
  if (input.usable.empty()) return tree;
  FullSahBuilder builder(input, params);
  builder.build({input.bounds, 0, input.usable, input.boxes});
  write_tree(builder.nodes, input, params.traversal_cost, tree);
  tree.stats.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return tree;
}

}  // namespace meniscus::sim::kdtree
