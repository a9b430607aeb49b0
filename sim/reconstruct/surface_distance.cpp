#include "sim/reconstruct/surface_distance.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/triangle_distance.h"

namespace meniscus::sim::reconstruct {
namespace {

// Triangles binned by the grid cells their bounding boxes overlap, in CSR form.
struct TriangleGrid {
  glm::vec3 origin{0.0f};
  float cell = 1.0f;
  glm::ivec3 dims{0};
  std::vector<uint32_t> start;  // per cell, into `triangles`; one more than the cells
  std::vector<uint32_t> triangles;

  // The cell holding p, in double and clamped to 2^28 cells either way so that neither it nor
  // the ring arithmetic around it (pc ± s, s up to its distance from the grid plus the grid's
  // size) can overflow an int: a clamped point lies on the same side of the whole grid, only
  // nearer, so the ring bounds drawn from it stay lower bounds.
  glm::ivec3 cell_of(glm::vec3 p) const {
    glm::ivec3 c;
    for (int a = 0; a < 3; ++a)
      c[a] = int(std::clamp(std::floor((double(p[a]) - origin[a]) / cell), -kFar, kFar));
    return c;
  }
  static constexpr double kFar = double(1 << 28);
  size_t index(glm::ivec3 c) const { return (size_t(c.z) * dims.y + c.y) * dims.x + c.x; }
};

TriangleGrid bin_triangles(const IndexedMesh& mesh) {
  TriangleGrid grid;
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (const glm::vec3& p : mesh.positions) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  // Cells a few edge lengths across on a surface mesh (about two triangles per occupied cell),
  // at most 512 a side and 8 cells per triangle in all, so that memory follows the triangles.
  // A mesh of one point still gets cells of a size its coordinates can resolve.
  const float magnitude = std::max({glm::length(lo), glm::length(hi), 1e-30f});
  const glm::vec3 extent = glm::max(hi - lo, glm::vec3(1e-6f * magnitude));
  const double triangles = double(std::max<size_t>(mesh.triangles.size(), 1));
  const double area = 2.0 * (double(extent.x) * extent.y + double(extent.y) * extent.z + double(extent.z) * extent.x);
  const double volume = double(extent.x) * extent.y * extent.z;
  grid.cell = float(std::max({std::sqrt(area / std::max(1.0, triangles / 2.0)), std::cbrt(volume / (8.0 * triangles)),
                              double(std::max({extent.x, extent.y, extent.z})) / 512.0}));
  grid.origin = lo;
  grid.dims = glm::max(glm::ivec3(extent / grid.cell) + 1, glm::ivec3(1));
  const size_t cells = size_t(grid.dims.x) * grid.dims.y * grid.dims.z;

  // Calls visit(cell index) for every cell triangle t's bounding box overlaps.
  auto for_each_cell = [&](const glm::uvec3& t, auto&& visit) {
    const glm::vec3 a = mesh.positions[t.x], b = mesh.positions[t.y], c = mesh.positions[t.z];
    const glm::ivec3 c0 = glm::clamp(grid.cell_of(glm::min(a, glm::min(b, c))), glm::ivec3(0), grid.dims - 1);
    const glm::ivec3 c1 = glm::clamp(grid.cell_of(glm::max(a, glm::max(b, c))), glm::ivec3(0), grid.dims - 1);
    for (int z = c0.z; z <= c1.z; ++z)
      for (int y = c0.y; y <= c1.y; ++y)
        for (int x = c0.x; x <= c1.x; ++x) visit(grid.index({x, y, z}));
  };
  grid.start.assign(cells + 1, 0);
  for (const glm::uvec3& t : mesh.triangles) for_each_cell(t, [&](size_t cell) { ++grid.start[cell + 1]; });
  for (size_t i = 0; i < cells; ++i) grid.start[i + 1] += grid.start[i];
  grid.triangles.resize(grid.start[cells]);
  std::vector<uint32_t> fill(grid.start.begin(), grid.start.end() - 1);
  for (uint32_t i = 0; i < mesh.triangles.size(); ++i)
    for_each_cell(mesh.triangles[i], [&](size_t cell) { grid.triangles[fill[cell]++] = i; });
  return grid;
}

// The nearest triangle's distance: rings of cells at Chebyshev distance s = 0, 1, ... from the
// point's cell (which may lie outside the grid). A triangle binned only in ring s or beyond is
// at least (s - 1) cells away, so once the best squared distance is within that, it is final.
float nearest_distance(const IndexedMesh& mesh, const TriangleGrid& grid, glm::vec3 p) {
  if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return std::numeric_limits<float>::quiet_NaN();
  const glm::ivec3 pc = grid.cell_of(p);
  // Rings before the grid's box holds any cell are empty.
  const glm::ivec3 below = glm::max(-pc, glm::ivec3(0)), above = glm::max(pc - (grid.dims - 1), glm::ivec3(0));
  const int first = std::max({below.x, below.y, below.z, above.x, above.y, above.z});
  const int last = first + std::max({grid.dims.x, grid.dims.y, grid.dims.z});
  float best2 = std::numeric_limits<float>::infinity();
  for (int s = first; s <= last; ++s) {
    const float reach = float(s - 1) * grid.cell;
    if (s > 0 && reach > 0.0f && best2 <= reach * reach) break;
    const glm::ivec3 lo = glm::max(pc - s, glm::ivec3(0)), hi = glm::min(pc + s, grid.dims - 1);
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y) {
        const bool face = std::abs(z - pc.z) == s || std::abs(y - pc.y) == s;
        for (int x = lo.x; x <= hi.x; ++x) {
          if (!face && std::abs(x - pc.x) != s) {
            x = std::max(x, pc.x + s - 1);  // skip the ring's hollow middle
            continue;
          }
          const size_t cell = grid.index({x, y, z});
          for (uint32_t k = grid.start[cell]; k < grid.start[cell + 1]; ++k) {
            const glm::uvec3 t = mesh.triangles[grid.triangles[k]];
            const glm::vec3 q =
                levelset::closest_point_on_triangle(p, mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z]).point;
            best2 = std::min(best2, glm::dot(p - q, p - q));
          }
        }
      }
  }
  return std::sqrt(best2);
}

}  // namespace

IndexedMesh extract_surface(const Reconstruction& r, const char* what) {
  CubeRecordSet records;
  levelset::generate_cube_records(*r.list, records, 0.0f, what);
  const int finest = r.frame.finest;
  return extract_record_mesh(records, glm::vec3(r.frame.world_of(glm::vec3(records.origin), finest)),
                             float(r.frame.voxel_size(finest)));
}

std::vector<float> distances_to_mesh(const IndexedMesh& mesh, std::span<const glm::vec3> points) {
  std::vector<float> out(points.size(), std::numeric_limits<float>::infinity());
  if (mesh.triangles.empty()) return out;
  const TriangleGrid grid = bin_triangles(mesh);
  tbb::parallel_for(size_t(0), points.size(), [&](size_t i) { out[i] = nearest_distance(mesh, grid, points[i]); });
  return out;
}

SurfaceAccuracy summarise_distances(std::span<const float> d, double diagonal) {
  SurfaceAccuracy a;
  double sum = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    sum += d[i];
    if (d[i] > d[a.worst_sample]) a.worst_sample = i;
  }
  if (!d.empty()) {
    a.mean_percent = 100.0 * sum / double(d.size()) / diagonal;
    a.max_percent = 100.0 * double(d[a.worst_sample]) / diagonal;
    std::vector<float> sorted(d.begin(), d.end());
    const auto nan_last = [](float x, float y) { return x < y || (!std::isnan(x) && std::isnan(y)); };
    const auto quantile = [&](double q) {
      const auto at = sorted.begin() + std::ptrdiff_t(q * double(sorted.size() - 1));
      std::nth_element(sorted.begin(), at, sorted.end(), nan_last);
      return 100.0 * double(*at) / diagonal;
    };
    a.median_percent = quantile(0.5);
    a.p99_percent = quantile(0.99);
  }
  return a;
}

SurfaceAccuracy surface_accuracy(const IndexedMesh& mesh, std::span<const glm::vec3> points, double diagonal) {
  return summarise_distances(distances_to_mesh(mesh, points), diagonal);
}

}  // namespace meniscus::sim::reconstruct
