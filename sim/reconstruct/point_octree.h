#pragma once
// The octree O of Algorithm 3 (Jalba et al. 2013, §4.1): the samples' cube split until each
// leaf holds one sample, or until depth D, where the samples sharing a leaf are merged into
// their centroid and counted. Every node keeps the centroid and number of the samples below it,
// which is all the Barnes–Hut potential needs. Each sample may carry a weight (the surface area
// it stands for, sample_weights.h): a node then also keeps the samples' total weight, and its
// centroid is the weighted mean, so a far node acts as its weight at its centre of mass.
//
// Layout for the stackless traversal (Algorithm 4): the 8 children of a node are consecutive
// (empty ones included, with count 0), so a node's next sibling is the next node; each node
// names its parent and its index among its siblings. Node 0 is the root.
//
// Coordinates are finest-grid units: the root cube is [0, 2^D)^3 and a node at depth k has side
// 2^(D-k). A level-r grid voxel v then sits at 2^(D-r) v, the paper's x'' (see reconstruction_frame.h).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace meniscus::sim::reconstruct {

inline constexpr uint32_t kNoNode = UINT32_MAX;
inline constexpr int kMaxOctreeDepth = 13;  // tile keys hold 8192 voxels along x (sim/levelset/tile_key.h)

struct OctreeNode {
  glm::vec3 centroid{0.0f};  // finest-grid units; the weighted mean of the samples below
  uint32_t count = 0;        // samples below (a merged leaf: how many it replaced)
  float weight = 0.0f;       // their total weight (= count without weights)
  uint32_t children = 0;     // first of 8 consecutive children; 0: a leaf (the root is never a child)
  uint32_t parent = kNoNode;
  uint8_t child_index = 0;   // among the parent's children, 0..7
  uint8_t depth = 0;
};

class PointOctree {
 public:
  // `points` in finest-grid units (outside [0, 2^D) they are clamped into the border leaves for
  // the partition, their centroids stay exact); `weights`, empty or one positive finite value
  // per point (empty: every sample weighs 1). Throws std::invalid_argument for D outside
  // [1, kMaxOctreeDepth] or weights that do not match the points.
  PointOctree(std::span<const glm::vec3> points, int max_depth, std::span<const float> weights = {});

  int max_depth() const { return max_depth_; }
  const std::vector<OctreeNode>& nodes() const { return nodes_; }
  // Side of a node at `depth`, in finest-grid units.
  float node_size(int depth) const { return float(1u << (max_depth_ - depth)); }
  size_t leaves() const { return leaves_; }
  size_t merged_leaves() const { return merged_leaves_; }  // depth-D leaves holding more than one sample
  double build_ms() const { return build_ms_; }

 private:
  int max_depth_;
  std::vector<OctreeNode> nodes_;
  size_t leaves_ = 0, merged_leaves_ = 0;
  double build_ms_ = 0;
};

}  // namespace meniscus::sim::reconstruct
