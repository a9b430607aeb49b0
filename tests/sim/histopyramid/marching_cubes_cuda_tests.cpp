// The CUDA marching cubes against the CPU one on a real NVIDIA device: for random and analytic
// fields, the same triangles (as edge-id triples, so the same cells, cases and corner order),
// the same crossed edges and the same vertex positions.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/marching_cubes_cuda.h"
#include "tests/support/device_checks.h"

namespace meniscus::sim {
namespace {

using device_test::check;

// Integer levels make many samples equal the iso value (the tie rule); `padded` closes every
// surface with a layer of outside samples.
Volume random_volume(glm::uvec3 dims, uint32_t seed, int levels, bool padded) {
  Volume v;
  v.dims = dims;
  v.source = "random";
  v.values.resize(size_t(dims.x) * dims.y * dims.z);
  std::mt19937 rng(seed);
  for (uint32_t z = 0; z < dims.z; ++z)
    for (uint32_t y = 0; y < dims.y; ++y)
      for (uint32_t x = 0; x < dims.x; ++x) {
        const bool border = x == 0 || y == 0 || z == 0 || x + 1 == dims.x || y + 1 == dims.y || z + 1 == dims.z;
        v.values[v.index(x, y, z)] = padded && border ? 0.0f : float(rng() % levels);
      }
  return v;
}

void compare(const std::string& name, const Volume& volume, float iso) {
  std::vector<uint64_t> cpu_edges;
  const IndexedMesh cpu = MarchingCubes().extract(volume, iso, nullptr, &cpu_edges);
  CudaMarchingCubes cuda(volume);
  const CudaSoup soup = cuda.extract(iso);
  std::printf("%s: CPU %zu triangles, CUDA %llu (%.3f ms on %s)\n", name.c_str(), cpu.triangles.size(),
              (unsigned long long)(soup.vertices / 3), soup.gpu_ms, cuda.device_name().c_str());
  check(soup.vertices == 3 * cpu.triangles.size(), name + ": triangle counts equal");
  if (soup.vertices != 3 * cpu.triangles.size()) return;

  std::vector<std::array<uint64_t, 3>> expected, got;
  for (const glm::uvec3& t : cpu.triangles) expected.push_back({cpu_edges[t.x], cpu_edges[t.y], cpu_edges[t.z]});
  for (size_t k = 0; k + 2 < soup.edges.size(); k += 3) got.push_back({soup.edges[k], soup.edges[k + 1], soup.edges[k + 2]});
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  check(got == expected, name + ": the same triangles (edge-id triples, corner order included)");

  // cpu_edges is in edge-id order: look each soup vertex's edge up and compare positions.
  size_t far = 0;
  for (size_t k = 0; k < soup.edges.size(); ++k) {
    const auto it = std::lower_bound(cpu_edges.begin(), cpu_edges.end(), soup.edges[k]);
    if (it == cpu_edges.end() || *it != soup.edges[k]) {
      ++far;
      continue;
    }
    const size_t v = size_t(it - cpu_edges.begin());
    const float d = glm::length(cpu.positions[v] - soup.positions[k]);
    const float n = glm::dot(cpu.normals[v], soup.normals[k]);
    far += !(d <= 1e-4f * (1.0f + glm::length(cpu.positions[v])) && n > 0.999f);
  }
  check(far == 0, name + ": every vertex on a CPU edge at the CPU's position and normal (" + std::to_string(far) + " off)");
}

int run() {
  std::string why;
  if (!cuda_marching_cubes_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  for (uint32_t seed : {1u, 2u, 3u}) compare("closed random " + std::to_string(seed), random_volume(glm::uvec3(17 + seed), seed, 3, true), 1.0f);
  compare("open random 70x33x9", random_volume({70, 33, 9}, 4, 4, false), 2.0f);
  compare("open random 130x5x64", random_volume({130, 5, 64}, 5, 2, false), 1.0f);
  for (uint32_t n : {64u, 65u, 128u, 256u}) compare("cayley " + std::to_string(n), make_field("cayley", n), 0.0f);
  compare("sphere 128", make_field("sphere", 128), 0.0f);
  compare("torus 100", make_field("torus", 100), 0.0f);

  bool refused = false;
  try {
    CudaMarchingCubes(make_field("sphere", 16)).extract(5.0f);
  } catch (const InputError&) {
    refused = true;
  }
  check(refused, "an iso value outside the data range is an InputError");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus::sim

int main() { return meniscus::device_test::run_main(meniscus::sim::run); }
