#include "engine/app/reconstruct_command.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/app/level_set_volume.h"
#include "engine/core/input_limits.h"
#include "engine/profile/cpu_timer.h"
#include "sim/common/mesh_reader.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/levelset/dense_sampling.h"
#include "sim/levelset/vdb_io.h"
#include "sim/reconstruct/reconstruction.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;
using profile::ms_since;

}  // namespace

int reconstruct_points(const ReconstructOptions& o) {
  const auto start = Clock::now();
  const limits::AllocationScope scope("reconstructing a surface from " + o.input.string());
  const sim::TriangleMesh cloud = sim::read_mesh(o.input);
  std::vector<glm::vec3> points;
  points.reserve(cloud.vertices.size());
  for (const auto& v : cloud.vertices) points.emplace_back(v[0], v[1], v[2]);
  std::printf("reconstruct: %s: %zu points, levels %d..%d, alpha %g\n", o.input.string().c_str(), points.size(),
              o.start_depth, o.depth, double(o.alpha));
  sim::reconstruct::ReconstructionParams params;
  params.coarsest = o.start_depth;
  params.finest = o.depth;
  params.alpha = o.alpha;
  params.precision = o.precision;
  const std::string name = o.input.string();
  const sim::reconstruct::Reconstruction r =
      sim::reconstruct::reconstruct_surface(points, params, name.c_str(), [](const sim::reconstruct::LevelReport& l) {
        std::printf("level %2d: %4d iterations%s, %7zu tiles, %7.2f s (potential %.0f ms, %llu tiles), E %.4f%% (mean |phi| %.3f voxels), "
                    "samples to surface: mean %.4f%%, worst %.3f%%, %zu lost samples put back\n",
                    l.level, l.iterations, l.converged ? "" : " (not converged)", l.tiles, l.seconds, l.potential_ms,
                    static_cast<unsigned long long>(l.potential_tiles), l.error_percent, l.mean_abs_phi,
                    l.mean_distance_percent, l.max_distance_percent, l.reseeded);
        std::fflush(stdout);
      });
  std::printf("sample weights: %.1f ms; octree: %zu nodes (%zu merged leaves), %.1f ms\n", r.weights_ms, r.octree_nodes,
              r.merged_leaves, r.octree_ms);

  const double h = r.frame.voxel_size(o.depth);
  if (o.output.extension() == ".vdb") {
    // The cube's corner is on the lattice of level-D voxels (reconstruction_frame.h).
    const glm::ivec3 offset = glm::ivec3(glm::round(r.frame.cube_origin / h)) - r.frame.offset(o.depth);
    sim::levelset::write_vdb(o.output, *r.list, offset, float(h));
    std::printf("%zu tiles -> %s\n", r.list->size(), o.output.string().c_str());
  } else {
    const sim::Volume volume = reconstruction_volume(r);
    const sim::IndexedMesh mesh = sim::MarchingCubes().extract(volume, 0.0f);
    sim::write_mesh(o.output, mesh);
    std::printf("%zu triangles, %zu vertices -> %s\n", mesh.triangles.size(), mesh.positions.size(),
                o.output.string().c_str());
  }
  std::printf("reconstruct: %.2f s in all\n", ms_since(start) / 1e3);
  return 0;
}

}  // namespace meniscus
