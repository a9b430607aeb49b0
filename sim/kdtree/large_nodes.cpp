// Large-node stage (Zhou et al. 2008, Algorithm 2, simplified for points as in §5.1): each BFS
// round takes every large node, groups its points into fixed chunks, splits the node (empty
// space, then spatial median; kdtree_rules.h) and moves its points to the children with a
// stable list split. Work is parallel over chunks, as the paper parallelises over primitives
// rather than nodes near the top of the tree.
//
// Bounding boxes come from chunked reductions: each chunk reduces the boxes of the two runs of
// points it has just written (still in cache) for the left and the right child, and a
// segmented reduction over a node's chunks gives its children's tight boxes. Chunks
// are fixed (kChunkSize points of one node), never sized by the thread count, so the tree is
// the same for any number of threads.
#include <tbb/parallel_for.h>

#include <algorithm>

#include "sim/kdtree/build_state.h"

namespace meniscus::sim::kdtree {
namespace {

struct Chunk {
  uint32_t node;  // position in the active list
  uint32_t begin, end;
};

Aabb points_box(const PointArrays& p, uint32_t begin, uint32_t end) {
  Aabb box = empty_box();
  for (uint32_t i = begin; i < end; ++i) grow(box, p.x[i], p.y[i], p.z[i]);
  return box;
}

const float* axis_array(const PointArrays& p, uint32_t axis) {
  return (axis == 0 ? p.x : (axis == 1 ? p.y : p.z)).data();
}

}  // namespace

void run_large_node_stage(BuildState& state) {
  auto& nodes = state.nodes;
  const uint32_t n = uint32_t(state.points[0].x.size());
  state.points[1].resize(n);

  BuildNode root;
  root.count = n;
  // The root's box is one reduction over chunks of all points; its cell is that box.
  {
    const uint32_t chunk_count = (n + kChunkSize - 1) / kChunkSize;
    std::vector<Aabb> boxes(chunk_count);
    tbb::parallel_for(uint32_t(0), chunk_count, [&](uint32_t c) {
      boxes[c] = points_box(state.points[0], c * kChunkSize, std::min(n, (c + 1) * kChunkSize));
    });
    root.box = empty_box();
    for (const Aabb& b : boxes) merge(root.box, b);
    root.cell = root.box;
  }
  nodes.push_back(root);
  if (n <= kSmallNodeMax) {
    nodes[0].small = 1;
    state.small_roots.push_back(0);
    return;
  }

  std::vector<uint32_t> active{0}, next;
  std::vector<LargeSplit> splits;
  std::vector<Chunk> chunks;
  std::vector<uint32_t> first_chunk, chunk_left, left_at, right_at;
  std::vector<Aabb> left_box, right_box;
  uint8_t buffer = 0;
  while (!active.empty()) {
    ++state.stats.large_levels;
    const PointArrays& src = state.points[buffer];
    PointArrays& dst = state.points[buffer ^ 1];

    // Split every active node from its (already reduced) tight box.
    splits.resize(active.size());
    tbb::parallel_for(size_t(0), active.size(), [&](size_t i) {
      splits[i] = choose_large_split(nodes[active[i]].cell, nodes[active[i]].box);
    });

    // Group each node's points into chunks.
    chunks.clear();
    first_chunk.resize(active.size() + 1);
    for (size_t i = 0; i < active.size(); ++i) {
      first_chunk[i] = uint32_t(chunks.size());
      const BuildNode& node = nodes[active[i]];
      if (splits[i].leaf) continue;
      for (uint32_t b = node.begin; b < node.begin + node.count; b += kChunkSize)
        chunks.push_back({uint32_t(i), b, std::min(b + kChunkSize, node.begin + node.count)});
    }
    first_chunk[active.size()] = uint32_t(chunks.size());

    // Count per chunk the points going left.
    chunk_left.resize(chunks.size());
    tbb::parallel_for(size_t(0), chunks.size(), [&](size_t c) {
      const LargeSplit& s = splits[chunks[c].node];
      const float* coord = axis_array(src, s.axis);
      uint32_t left = 0;
      for (uint32_t i = chunks[c].begin; i < chunks[c].end; ++i) left += coord[i] < s.position;
      chunk_left[c] = left;
    });

    // Scan per node (a segmented scan): where each chunk's left and right points go.
    left_at.resize(chunks.size());
    right_at.resize(chunks.size());
    std::vector<uint32_t> node_left(active.size(), 0);
    tbb::parallel_for(size_t(0), active.size(), [&](size_t i) {
      uint32_t total_left = 0;
      for (uint32_t c = first_chunk[i]; c < first_chunk[i + 1]; ++c) total_left += chunk_left[c];
      const uint32_t begin = nodes[active[i]].begin;
      uint32_t l = begin, r = begin + total_left;
      for (uint32_t c = first_chunk[i]; c < first_chunk[i + 1]; ++c) {
        left_at[c] = l;
        right_at[c] = r;
        l += chunk_left[c];
        r += (chunks[c].end - chunks[c].begin) - chunk_left[c];
      }
      node_left[i] = total_left;
    });

    // Move the points (stable list split), then reduce the children's boxes per chunk over
    // the two runs the chunk wrote. The side a point goes to is as good as random, so the move
    // picks its destination without a branch (a mispredicted one per point was most of this
    // stage's time).
    left_box.resize(chunks.size());
    right_box.resize(chunks.size());
    tbb::parallel_for(size_t(0), chunks.size(), [&](size_t c) {
      const LargeSplit& s = splits[chunks[c].node];
      const float* coord = axis_array(src, s.axis);
      uint32_t l = left_at[c], r = right_at[c];
      for (uint32_t i = chunks[c].begin; i < chunks[c].end; ++i) {
        const uint32_t go_left = coord[i] < s.position;
        const uint32_t to = r + ((l - r) & (0u - go_left));
        dst.x[to] = src.x[i];
        dst.y[to] = src.y[i];
        dst.z[to] = src.z[i];
        dst.id[to] = src.id[i];
        l += go_left;
        r += 1 - go_left;
      }
      left_box[c] = points_box(dst, left_at[c], l);
      right_box[c] = points_box(dst, right_at[c], r);
    });

    // Create the children in active-list order (BFS numbering), and sort them into small
    // roots and the next round's large nodes.
    next.clear();
    for (size_t i = 0; i < active.size(); ++i) {
      const uint32_t id = active[i];
      const LargeSplit& s = splits[i];
      nodes[id].cell = s.cell;
      nodes[id].buffer = buffer;
      if (s.leaf) {
        nodes[id].axis = kLeafAxis;
        ++state.stats.forced_leaves;
        continue;
      }
      BuildNode children[2];
      for (int side = 0; side < 2; ++side) {
        BuildNode& child = children[side];
        child.box = empty_box();
        for (uint32_t c = first_chunk[i]; c < first_chunk[i + 1]; ++c) merge(child.box, side ? right_box[c] : left_box[c]);
        child.cell = s.cell;
        (side ? child.cell.lo : child.cell.hi)[s.axis] = s.position;
        child.begin = side ? nodes[id].begin + node_left[i] : nodes[id].begin;
        child.count = side ? nodes[id].count - node_left[i] : node_left[i];
        child.depth = nodes[id].depth + 1;
        child.buffer = buffer ^ 1;
      }
      nodes[id].axis = s.axis;
      nodes[id].split = s.position;
      for (int side = 0; side < 2; ++side) {
        const uint32_t child_id = uint32_t(nodes.size());
        (side ? nodes[id].right : nodes[id].left) = child_id;
        if (children[side].count <= kSmallNodeMax) {
          children[side].small = 1;
          state.small_roots.push_back(child_id);
        } else {
          next.push_back(child_id);
        }
        nodes.push_back(children[side]);
      }
    }
    active.swap(next);
    buffer ^= 1;
  }
}

}  // namespace meniscus::sim::kdtree
