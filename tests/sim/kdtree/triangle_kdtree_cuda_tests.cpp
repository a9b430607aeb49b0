// The CUDA triangle kd-tree build against the CPU build: the same tree — nodes, leaf entries and
// leaf geometry to the bit, and the same statistics — on a water block with waves (the dynamic
// case, its walls lying in empty-space cuts), Lucy, a random soup with degenerate and NaN
// triangles, coincident triangles, a root small enough to be a small root, empty and all-
// degenerate meshes, and other parameters; and the same InputErrors for bad input. Exits with MENISCUS_SKIP_CODE
// (ctest: skipped) and says why when no CUDA device answers.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/kdtree/triangle_kdtree_cuda.h"
#include "sim/photon/water_block.h"
#include "tests/sim/kdtree/triangle_test_meshes.h"
#include "tests/support/device_checks.h"

namespace meniscus::sim::kdtree {
namespace {

using device_test::check;
using device_test::kOnCpuLayer;

using test::Mesh;

Mesh water(uint32_t grid) {
  photon::TriangleSoup soup = photon::water_block(grid, {-1.0f, -1.0f}, {1.0f, 1.0f}, 0.0f, [](float x, float z) {
    return 0.5f + 0.04f * std::sin(6.0f * x) * std::cos(5.0f * z) + 0.015f * std::sin(23.0f * (x + z));
  });
  return {std::move(soup.vertices), std::move(soup.indices)};
}

// The same triangle many times over: no median split gains anything.
Mesh coincident(size_t copies) {
  Mesh mesh{{{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.5f}}, {}};
  for (size_t i = 0; i < copies; ++i) mesh.indices.insert(mesh.indices.end(), {0u, 1u, 2u});
  return mesh;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void compare(const std::string& name, const Mesh& mesh, const TriangleKdParams& params = {}) {
  const TriangleKdTree cpu = build_triangle_kdtree(mesh.vertices, mesh.indices, params);
  const TriangleKdTree gpu = build_triangle_kdtree_cuda(mesh.vertices, mesh.indices, params);
  std::printf(
      "%s: %zu triangles (%u skipped): CPU build %.1f ms, CUDA build %.2f ms; %zu vs %zu nodes, "
      "%zu vs %zu leaf entries\n",
      name.c_str(), mesh.indices.size() / 3, cpu.stats.skipped, cpu.stats.build_ms, gpu.stats.build_ms,
      gpu.nodes.size(), cpu.nodes.size(), gpu.leaf_triangles.size(), cpu.leaf_triangles.size());
  check(same_bytes(gpu.nodes, cpu.nodes) && gpu.leaf_triangles == cpu.leaf_triangles &&
            same_bytes(gpu.leaf_geometry, cpu.leaf_geometry) && gpu.lo == cpu.lo && gpu.hi == cpu.hi,
        name + ": the GPU-built tree equals the CPU-built tree");
  const TriangleKdStats &g = gpu.stats, &c = cpu.stats;
  check(g.triangles == c.triangles && g.skipped == c.skipped && g.large_levels == c.large_levels &&
            g.small_roots == c.small_roots && g.leaves == c.leaves && g.empty_leaves == c.empty_leaves &&
            g.max_depth == c.max_depth && g.references == c.references && g.sah_cost == c.sah_cost,
        name + ": the GPU build's statistics equal the CPU build's");
}

// The message of the InputError `build` throws, or "" when it throws none.
template <class F>
std::string input_error(F build) {
  try {
    build();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

int run() {
  std::string why;
  if (!triangle_kdtree_cuda_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  compare("water 64x64", water(64));
  compare("soup", test::random_soup(20000, 5, /*bad=*/true));
  compare("coincident", coincident(300));
  compare("small root", test::random_soup(40, 9, true));
  compare("one usable triangle", test::random_soup(2, 3, true));
  compare("empty", coincident(0));
  compare("only degenerate", Mesh{{{0.0f, 0.0f, 0.0f}, {1.0f, 1.0f, 1.0f}, {2.0f, 2.0f, 2.0f}}, {0, 1, 2, 0, 0, 1}});
  compare("water, T 8, C_ts 0.5", water(32), TriangleKdParams{.large_node_triangles = 8, .traversal_cost = 0.5f});
  compare("water, max depth 6", water(32), TriangleKdParams{.max_depth = 6});
  // ctest runs this program in the build tree: the mesh is found from the source tree.
  compare("lucy", test::read_triangles(std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes/data/vtk-data/lucy.ply"));
  // The benchmark's size (264,192 triangles): the real device's case, minutes on the CPU layer.
  if (!kOnCpuLayer) compare("water 256x256", water(256));

  Mesh bad = test::random_soup(100, 4);
  bad.indices[151] = uint32_t(bad.vertices.size());
  const auto cpu_error = input_error([&] { build_triangle_kdtree(bad.vertices, bad.indices); });
  const auto gpu_error = input_error([&] { build_triangle_kdtree_cuda(bad.vertices, bad.indices); });
  std::printf("index out of range: CPU '%s', CUDA '%s'\n", cpu_error.c_str(), gpu_error.c_str());
  check(!gpu_error.empty() && gpu_error == cpu_error, "an index out of range is the CPU build's InputError");
  check(!input_error([&] { build_triangle_kdtree_cuda(bad.vertices, std::span(bad.indices).first(10)); }).empty(),
        "an index count not divisible by three is an InputError");
  check(!input_error([&] { build_triangle_kdtree_cuda(bad.vertices, {}, TriangleKdParams{.max_depth = 65}); }).empty(),
        "a max_depth beyond the traversal's stack is an InputError");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus::sim::kdtree

int main() { return meniscus::device_test::run_main(meniscus::sim::kdtree::run); }
