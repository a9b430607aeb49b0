// run_large_stage (large_triangle_stage.h). A level is two parallel passes over chunks of its
// nodes' triangles: the first counts where each goes, the second writes each at its place (the
// counts scanned in node order, so every node keeps its triangles in id order) and gathers the
// children's tight boxes. Each pass classifies, rather than the first handing both clipped
// boxes of every triangle to the second: few triangles straddle a split, and only those clip.
#include "sim/kdtree/large_triangle_stage.h"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace meniscus::sim::kdtree {
namespace {

constexpr uint32_t kChunk = 4096;

// The triangles of the level being split, node after node: the input's at the root, then one
// of the working arrays.
struct LevelView {
  const uint32_t* triangles;
  const Box* clipped;
};

// A node of the level: its triangles [begin, end) in the level's entries and their tight box;
// which side of which node of the level before it is.
struct LevelNode {
  uint32_t node;
  uint32_t begin, end;
  Box tight = Box::inverted();
  uint32_t parent = 0;
  bool right = false;
};

// Where a child's triangles go: nowhere (an empty leaf), the next level or the small roots'.
enum class Target : uint8_t { kNone, kNext, kSmall };

// Part of one node's triangles, classified by one task.
struct LevelChunk {
  uint32_t level_node;
  uint32_t begin, end;
  uint32_t count[2] = {0, 0};  // how many go to the left and the right child
  Target target[2] = {Target::kNone, Target::kNone};
  uint32_t at[2] = {0, 0};                    // where in the target the first of them goes
  Box tight[2] = {Box::inverted(), Box::inverted()};  // the boxes they go with
};

class LevelSplitter {
 public:
  LevelSplitter(const TriangleInput& input, const TriangleKdParams& params, LargeStage& out)
      : corners_(input.corners), params_(params), out_(out) {}

  // Splits the level's nodes (their triangles in `entries`); returns the next level's, whose
  // triangles are then in `next`.
  std::vector<LevelNode> split(const std::vector<LevelNode>& level, LevelView entries, LevelEntries& next) {
    std::vector<LargeTriangleSplit> rules(level.size());
    std::vector<LevelChunk> chunks;
    std::vector<size_t> first_chunk(level.size() + 1);
    for (uint32_t i = 0; i < level.size(); ++i) {
      first_chunk[i] = chunks.size();
      const LargeStageNode& node = out_.nodes[level[i].node];
      rules[i] = choose_large_triangle_split(level[i].tight, node.box, node.depth, params_);
      if (rules[i].leaf) continue;
      for (uint32_t begin = level[i].begin; begin < level[i].end; begin += kChunk)
        chunks.push_back({i, begin, std::min(begin + kChunk, level[i].end)});
    }
    first_chunk[level.size()] = chunks.size();
    tbb::parallel_for(size_t(0), chunks.size(),
                      [&](size_t c) { count(chunks[c], rules[chunks[c].level_node], entries); });

    // Node by node, in order: the children made and their triangles' places.
    std::vector<LevelNode> next_level;
    size_t next_size = 0, small_size = out_.small_triangles.size();
    for (uint32_t i = 0; i < level.size(); ++i) {
      uint32_t counts[2] = {0, 0};
      for (size_t c = first_chunk[i]; c < first_chunk[i + 1]; ++c)
        for (int side = 0; side < 2; ++side) counts[side] += chunks[c].count[side];
      const uint32_t size = level[i].end - level[i].begin;
      if (!rules[i].leaf && split_gains_nothing(rules[i], size, counts[0], counts[1])) rules[i].leaf = true;
      if (rules[i].leaf) {
        make_leaf(level[i], entries);
        continue;
      }
      const uint32_t child = uint32_t(out_.nodes.size()), depth = out_.nodes[level[i].node].depth + 1;
      {  // before the children are appended, which may move the nodes
        LargeStageNode& node = out_.nodes[level[i].node];
        node.kind = LargeStageNode::Kind::kInterior;
        node.axis = rules[i].axis;
        node.split = rules[i].split;
        node.left = child;
        node.right = child + 1;
      }
      for (int side = 0; side < 2; ++side) {
        LargeStageNode made;
        made.box = side ? rules[i].right_box : rules[i].left_box;
        made.depth = depth;
        Target target = Target::kNone;
        uint32_t at = 0;
        if (counts[side] > params_.large_node_triangles) {
          target = Target::kNext;
          at = uint32_t(next_size);
          next_level.push_back(
              {child + side, uint32_t(next_size), uint32_t(next_size + counts[side]), Box::inverted(), i, side == 1});
          next_size += counts[side];
        } else if (counts[side] > 0) {
          target = Target::kSmall;
          at = uint32_t(small_size);
          made.kind = LargeStageNode::Kind::kSmallRoot;
          made.first = uint32_t(small_size);
          made.count = counts[side];
          made.small_root = uint32_t(out_.small_roots.size());
          out_.small_roots.push_back(child + side);
          small_size += counts[side];
        }
        // Positions are 32-bit: a level of more triangles is far beyond what the tree can index.
        if (next_size > TriangleKdNode::kMaxIndex || small_size > TriangleKdNode::kMaxIndex) throw_tree_too_large();
        out_.nodes.push_back(made);
        for (size_t c = first_chunk[i]; c < first_chunk[i + 1]; ++c) {
          chunks[c].target[side] = target;
          chunks[c].at[side] = at;
          at += chunks[c].count[side];
        }
      }
    }
    if (next.triangles.size() < next_size) {  // the arrays only grow: the level's nodes' ranges say what is used
      next.triangles.resize(next_size);
      next.clipped.resize(next_size);
    }
    out_.small_triangles.resize(small_size);
    out_.small_clipped.resize(small_size);
    tbb::parallel_for(size_t(0), chunks.size(), [&](size_t c) {
      const LargeTriangleSplit& rule = rules[chunks[c].level_node];
      if (!rule.leaf) scatter(chunks[c], rule, entries, next);  // a split that gained nothing is a leaf now
    });

    // A large child's tight box: the union of what its parent's chunks sent it. Minima and
    // maxima are exact: the box its own triangles give, in any grouping.
    for (LevelNode& child : next_level)
      for (size_t c = first_chunk[child.parent]; c < first_chunk[child.parent + 1]; ++c)
        child.tight.grow(chunks[c].tight[child.right]);
    return next_level;
  }

 private:
  void count(LevelChunk& chunk, const LargeTriangleSplit& rule, LevelView entries) const {
    for (uint32_t i = chunk.begin; i < chunk.end; ++i) {
      const TriangleSides sides = classify_triangle(corners_[entries.triangles[i]], entries.clipped[i], rule);
      chunk.count[0] += sides.left;
      chunk.count[1] += sides.right;
    }
  }

  void scatter(LevelChunk& chunk, const LargeTriangleSplit& rule, LevelView entries, LevelEntries& next) const {
    const auto destination = [&](int side) {
      const bool to_next = chunk.target[side] == Target::kNext;
      return std::pair{(to_next ? next.triangles.data() : out_.small_triangles.data()) + chunk.at[side],
                       (to_next ? next.clipped.data() : out_.small_clipped.data()) + chunk.at[side]};
    };
    // Locals, not the chunk's fields: the compiler keeps them in registers.
    auto [left_triangles, left_clipped] = destination(0);
    auto [right_triangles, right_clipped] = destination(1);
    Box left_tight = chunk.tight[0], right_tight = chunk.tight[1];
    for (uint32_t i = chunk.begin; i < chunk.end; ++i) {
      const uint32_t t = entries.triangles[i];
      const TriangleSides sides = classify_triangle(corners_[t], entries.clipped[i], rule);
      if (sides.left) {
        *left_triangles++ = t;
        *left_clipped++ = sides.left_box;
        left_tight.grow(sides.left_box);
      }
      if (sides.right) {
        *right_triangles++ = t;
        *right_clipped++ = sides.right_box;
        right_tight.grow(sides.right_box);
      }
    }
    chunk.tight[0] = left_tight;
    chunk.tight[1] = right_tight;
  }

  // A large-stage leaf of the node's triangles.
  void make_leaf(const LevelNode& level_node, LevelView entries) {
    LargeStageNode& node = out_.nodes[level_node.node];
    node.kind = LargeStageNode::Kind::kLeaf;
    node.first = uint32_t(out_.leaf_triangles.size());
    node.count = level_node.end - level_node.begin;
    out_.leaf_triangles.insert(out_.leaf_triangles.end(), entries.triangles + level_node.begin,
                               entries.triangles + level_node.end);
  }

  const std::vector<TriangleCorners>& corners_;
  const TriangleKdParams& params_;
  LargeStage& out_;
};

}  // namespace

void run_large_stage(const TriangleInput& input, const TriangleKdParams& params, LargeStage& out) {
  out.nodes.clear();
  out.leaf_triangles.clear();
  out.small_triangles.clear();
  out.small_clipped.clear();
  out.small_roots.clear();
  out.levels = 0;
  LargeStageNode root;
  root.box = input.bounds;
  const uint32_t n = uint32_t(input.usable.size());
  if (n <= params.large_node_triangles) {
    root.kind = LargeStageNode::Kind::kSmallRoot;
    root.count = n;
    out.nodes.push_back(root);
    out.small_roots.push_back(0);
    out.small_triangles.assign(input.usable.begin(), input.usable.end());
    out.small_clipped.assign(input.boxes.begin(), input.boxes.end());
    return;
  }
  out.nodes.push_back(root);
  // The small roots end up with about every triangle, a few clipped into two: room enough that
  // their arrays rarely move as they grow level by level.
  out.small_triangles.reserve(n + n / 4);
  out.small_clipped.reserve(n + n / 4);
  // The root's tight box is the input's bounds: the union of its triangles' boxes.
  std::vector<LevelNode> level{{0, 0, n, input.bounds, 0, false}};
  LevelView entries{input.usable.data(), input.boxes.data()};
  LevelSplitter splitter(input, params, out);
  for (uint32_t write = 0; !level.empty(); write ^= 1) {
    ++out.levels;
    level = splitter.split(level, entries, out.working[write]);
    entries = {out.working[write].triangles.data(), out.working[write].clipped.data()};
  }
}

}  // namespace meniscus::sim::kdtree
