#pragma once
// Peer implementations the benchmarks compare against, when their packages are installed.
#include <array>
#include <cstdint>
#include <optional>

#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "sim/histopyramid/volume.h"

namespace meniscus::bench {

struct LevelSetPeerResult {
  double ms_per_step;
  uint64_t leaf_nodes;     // 8^3 leaves (OpenVDB's tiles)
  uint64_t active_voxels;
  uint64_t memory_bytes;
  double radius_error;     // voxels, against r^2 = r0^2 - 2t (OpenVDB's mean curvature is the average of the principal curvatures)
};

// `steps` of LevelSetFilter::meanCurvature on a narrow-band sphere (voxel size 1); nullopt
// without OpenVDB.
std::optional<LevelSetPeerResult> openvdb_mean_curvature(float radius, glm::vec3 centre, int steps);
// `steps` of LevelSetFilter::meanCurvature on a mesh scan-converted by OpenVDB's own
// meshToLevelSet (half width 3, OpenVDB's default) at `voxel_size`; radius_error is 0 (no
// analytic answer). nullopt without OpenVDB.
std::optional<LevelSetPeerResult> openvdb_mesh_mean_curvature(std::span<const std::array<float, 3>> vertices,
                                                              std::span<const std::array<uint32_t, 3>> triangles,
                                                              float voxel_size, int steps);
const char* openvdb_version();

struct EnrightPeerResult {
  double seconds;       // the advection only
  uint64_t steps;       // CFL sub-steps
  double volume_loss;   // 1 − final / initial, by OpenVDB's levelSetVolume
  double initial_area, final_area;  // voxels², levelSetArea
  uint64_t max_active_voxels;
  uint64_t memory_bytes;  // the grid's at the end
};

// The Enright test as OpenVDB runs it (its own EnrightField, period 3): a sphere of radius 0.15
// at 0.35 in the unit cube at `resolution` voxels a side, `half_width` voxels of band, advected
// by LevelSetAdvection with HJWENO5 and TVD-RK2, its tracker renormalising (HJWENO5, TVD-RK1)
// and pruning after every step. nullopt without OpenVDB.
std::optional<EnrightPeerResult> openvdb_enright(int resolution, float half_width);
const char* openvdb_enright_version();

struct KnnPeerResult {
  double build_ms;
  double knn_ms;
  std::vector<float> kth_distance;  // per point (input order): distance to its k-th neighbour
};

// nanoflann's kd-tree (leaf size 10, its default) over the points, then the k nearest of every
// point, queried in `order` in parallel on the TBB threads allowed (nanoflann 1.4 builds on one
// thread); nullopt when the benchmark was built without nanoflann.
std::optional<KnnPeerResult> nanoflann_knn(std::span<const glm::vec3> points, uint32_t k, std::span<const uint32_t> order);
const char* nanoflann_version();

}  // namespace meniscus::bench
