// The Vulkan compute HistoPyramid against the CPU reference, on lavapipe here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/data_files.h"
#include "engine/graph/executor.h"
#include "passes/surface/gpu_extraction.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/volume_io.h"

namespace meniscus {
namespace {

sim::Volume padded_random(uint32_t n, uint32_t seed) {
  sim::Volume v;
  v.dims = {n, n + 3, n + 5};  // not a cube: exercises the flat layout's tiling
  v.source = "random";
  v.values.resize(size_t(v.dims.x) * v.dims.y * v.dims.z);
  std::mt19937 rng(seed);
  for (uint32_t z = 0; z < v.dims.z; ++z)
    for (uint32_t y = 0; y < v.dims.y; ++y)
      for (uint32_t x = 0; x < v.dims.x; ++x) {
        const bool border = !x || !y || !z || x == v.dims.x - 1 || y == v.dims.y - 1 || z == v.dims.z - 1;
        v.values[v.index(x, y, z)] = border ? 0.0f : float(rng() % 3);
      }
  return v;
}

// Points of `points` with no point of `reference` within `tolerance` (a hash grid of cells of
// that size; the 27 neighbouring cells are searched).
size_t unmatched(const std::vector<glm::vec3>& points, const std::vector<glm::vec3>& reference, float tolerance) {
  std::map<std::array<int64_t, 3>, std::vector<glm::vec3>> grid;
  auto cell = [&](glm::vec3 p) {
    return std::array<int64_t, 3>{int64_t(std::floor(p.x / tolerance)), int64_t(std::floor(p.y / tolerance)),
                                  int64_t(std::floor(p.z / tolerance))};
  };
  for (const glm::vec3& p : reference) grid[cell(p)].push_back(p);
  size_t missing = 0;
  for (const glm::vec3& p : points) {
    const auto c = cell(p);
    bool found = false;
    for (int dz = -1; dz <= 1 && !found; ++dz)
      for (int dy = -1; dy <= 1 && !found; ++dy)
        for (int dx = -1; dx <= 1 && !found; ++dx) {
          auto it = grid.find({c[0] + dx, c[1] + dy, c[2] + dz});
          if (it == grid.end()) continue;
          for (const glm::vec3& q : it->second)
            if (glm::distance(p, q) <= tolerance) {
              found = true;
              break;
            }
        }
    missing += !found;
  }
  return missing;
}

void check_against_cpu(const Context& context, const sim::Volume& volume, float iso) {
  std::vector<uint64_t> vertex_edges;
  const sim::IndexedMesh mesh = sim::MarchingCubes().extract(volume, iso, nullptr, &vertex_edges);
  std::vector<glm::vec3> soup;
  std::vector<uint64_t> soup_edges;
  for (const glm::uvec3& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      soup.push_back(mesh.positions[t[k]]);
      soup_edges.push_back(vertex_edges[t[k]]);
    }
  passes::GpuHistoPyramid pyramid(context, volume, volume.origin, volume.spacing);
  passes::GpuSoup gpu = passes::extract_on_gpu(context, pyramid, iso);
  INFO(volume.source << " iso " << iso);
  REQUIRE(gpu.positions.size() == soup.size());
  // Exactly the same cube edges carry vertices (integers: no tolerance)...
  std::sort(soup_edges.begin(), soup_edges.end());
  std::sort(gpu.edges.begin(), gpu.edges.end());
  CHECK(gpu.edges == soup_edges);
  // ...and the vertices sit where the CPU puts them. Float rounding differs between the CPU's a + t(b - a) and GLSL's mix(): allow 1e-6 of the
  // volume's extent (0.3 um on the 300 mm CT head), far below any real difference.
  const glm::vec3 extent = volume.spacing * glm::vec3(volume.dims);
  const float tolerance = std::max({extent.x, extent.y, extent.z}) * 1e-6f;
  CHECK(unmatched(gpu.positions, soup, tolerance) == 0);
  CHECK(unmatched(soup, gpu.positions, tolerance) == 0);
}

}  // namespace

TEST_CASE("Vulkan HistoPyramid matches the CPU reference on random and analytic fields", "[histopyramid][vulkan]") {
  Context context(ContextOptions{.validation = true});
  check_against_cpu(context, padded_random(13, 1), 1.0f);
  check_against_cpu(context, padded_random(20, 2), 1.0f);
  check_against_cpu(context, sim::make_field("sphere", 40), 0.0f);
  check_against_cpu(context, sim::make_field("torus", 33), 0.0f);
  check_against_cpu(context, sim::make_field("cayley", 33), 0.0f);  // odd N: ties at the iso value
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("Vulkan HistoPyramid on the CT head", "[histopyramid][vulkan][data]") {
  const auto path = find_data_file("vtk-data/headsq/quarter.nhdr");
  Context context(ContextOptions{.validation = true});
  check_against_cpu(context, sim::load_volume(path.string()), 500.0f);
  CHECK(context.validation_error_count() == 0);
}

}  // namespace meniscus
