#include <openvdb/openvdb.h>
#include <openvdb/tools/LevelSetAdvect.h>
#include <openvdb/tools/LevelSetFilter.h>
#include <openvdb/tools/LevelSetMeasure.h>
#include <openvdb/tools/LevelSetSphere.h>
#include <openvdb/tools/MeshToVolume.h>
#include <openvdb/tools/VelocityFields.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "tools/bench/peers.h"

namespace meniscus::bench {

std::optional<LevelSetPeerResult> openvdb_mean_curvature(float radius, glm::vec3 centre, int steps) {
  openvdb::initialize();
  auto grid = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(radius, openvdb::Vec3f(centre.x, centre.y, centre.z),
                                                                       1.0f, float(openvdb::LEVEL_SET_HALF_WIDTH));
  openvdb::tools::LevelSetFilter<openvdb::FloatGrid> filter(*grid);
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) filter.meanCurvature();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / steps;

  // Radius from the zero crossings along grid edges, as for ours.
  auto accessor = grid->getConstAccessor();
  double sum = 0;
  size_t count = 0;
  for (auto it = grid->cbeginValueOn(); it; ++it) {
    const openvdb::Coord p = it.getCoord();
    const float a = *it;
    for (int axis = 0; axis < 3; ++axis) {
      openvdb::Coord q = p;
      q[axis] += 1;
      const float b = accessor.getValue(q);
      if ((a < 0) == (b < 0)) continue;
      openvdb::Vec3d x(p.x(), p.y(), p.z());
      x[axis] += a / (a - b);
      sum += (x - openvdb::Vec3d(centre.x, centre.y, centre.z)).length();
      ++count;
    }
  }
  // LevelSetFilter's step: dt = dx^2 / 3 with the mean of the principal curvatures, so a sphere
  // follows r^2 = r0^2 - 2t.
  const double t = steps / 3.0;
  const double expected = std::sqrt(double(radius) * radius - 2.0 * t);
  return LevelSetPeerResult{ms, grid->tree().leafCount(), grid->activeVoxelCount(), grid->memUsage(),
                            std::abs((count ? sum / count : 0.0) - expected)};
}

std::optional<LevelSetPeerResult> openvdb_mesh_mean_curvature(std::span<const std::array<float, 3>> vertices,
                                                              std::span<const std::array<uint32_t, 3>> triangles,
                                                              float voxel_size, int steps) {
  openvdb::initialize();
  std::vector<openvdb::Vec3s> points;
  points.reserve(vertices.size());
  for (const auto& v : vertices) points.emplace_back(v[0], v[1], v[2]);
  std::vector<openvdb::Vec3I> faces;
  faces.reserve(triangles.size());
  for (const auto& t : triangles) faces.emplace_back(t[0], t[1], t[2]);
  const auto transform = openvdb::math::Transform::createLinearTransform(voxel_size);
  auto grid = openvdb::tools::meshToLevelSet<openvdb::FloatGrid>(*transform, points, faces);
  openvdb::tools::LevelSetFilter<openvdb::FloatGrid> filter(*grid);
  const auto start = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) filter.meanCurvature();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / steps;
  return LevelSetPeerResult{ms, grid->tree().leafCount(), grid->activeVoxelCount(), grid->memUsage(), 0.0};
}

std::optional<EnrightPeerResult> openvdb_enright(int resolution, float half_width) {
  openvdb::initialize();
  const float voxel = 1.0f / float(resolution);
  auto grid = openvdb::tools::createLevelSetSphere<openvdb::FloatGrid>(0.15f, openvdb::Vec3f(0.35f), voxel, half_width);
  using Field = openvdb::tools::EnrightField<float>;
  openvdb::tools::LevelSetAdvection<openvdb::FloatGrid, Field> advection(*grid, Field());
  advection.setSpatialScheme(openvdb::math::HJWENO5_BIAS);
  advection.setTemporalScheme(openvdb::math::TVD_RK2);
  advection.setTrackerSpatialScheme(openvdb::math::HJWENO5_BIAS);
  advection.setTrackerTemporalScheme(openvdb::math::TVD_RK1);
  const double volume_before = openvdb::tools::levelSetVolume(*grid);
  EnrightPeerResult r{};
  r.initial_area = openvdb::tools::levelSetArea(*grid, false);
  // A frame at a time (1/64 of the period), as OpenVDB's own Enright runs it, so the band's
  // largest extent is seen.
  constexpr int kFrames = 64;
  constexpr float kPeriod = 3.0f;
  double seconds = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    const auto start = std::chrono::steady_clock::now();
    r.steps += advection.advect(kPeriod * frame / kFrames, kPeriod * (frame + 1) / kFrames);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.max_active_voxels = std::max<uint64_t>(r.max_active_voxels, grid->activeVoxelCount());
  }
  r.seconds = seconds;
  r.volume_loss = 1.0 - openvdb::tools::levelSetVolume(*grid) / volume_before;
  r.final_area = openvdb::tools::levelSetArea(*grid, false);
  r.memory_bytes = grid->memUsage();
  return r;
}

const char* openvdb_enright_version() {
  static const std::string text = std::string("openvdb-") + openvdb::getLibraryAbiVersionString() + "-LevelSetAdvection";
  return text.c_str();
}

const char* openvdb_version() {
  static const std::string text = std::string("openvdb-") + openvdb::getLibraryAbiVersionString() + "-LevelSetFilter";
  return text.c_str();
}

}  // namespace meniscus::bench
