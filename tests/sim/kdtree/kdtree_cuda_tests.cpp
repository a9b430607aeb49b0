// The CUDA KNN against the CPU backend on a real NVIDIA device: the same neighbours and the same
// distances, bit for bit, on uniform, clustered, duplicated and tiny point sets.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/core/error.h"
#include "sim/kdtree/kdtree_cuda.h"

namespace meniscus::sim::kdtree {
namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "PASS" : "FAIL", what.c_str());
  failures += ok ? 0 : 1;
}

std::vector<glm::vec3> points_for(const std::string& name, size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::normal_distribution<float> g(0.0f, 1.0f);
  std::vector<glm::vec3> p(n);
  for (size_t i = 0; i < n; ++i) {
    if (name == "clusters") {
      const float width = (i / 1000) % 2 ? 0.01f : 0.3f;
      p[i] = glm::vec3(float((i / 1000) % 7), float((i / 7000) % 5), 0.0f) + width * glm::vec3(g(rng), g(rng), g(rng));
    } else {
      p[i] = {u(rng), u(rng), u(rng)};
    }
  }
  if (name == "duplicates")
    for (size_t i = 0; i < n / 3; ++i) p[n - 1 - i] = p[i % 11];
  return p;
}

void compare(const std::string& name, size_t n, uint32_t k) {
  const auto points = points_for(name, n);
  const KdTree tree = build_kdtree(points, KdTreeParams{.k = k});
  const KnnResult cpu = knn_all(tree, KnnParams{.k = k});
  const KnnResult gpu = knn_all_cuda(tree, KnnParams{.k = k});
  size_t rows_differ = 0;
  for (size_t q = 0; q < cpu.queries(); ++q)
    for (uint32_t j = 0; j < cpu.k; ++j)
      if (cpu.indices[q * cpu.k + j] != gpu.indices[q * cpu.k + j] || cpu.distances[q * cpu.k + j] != gpu.distances[q * cpu.k + j]) {
        ++rows_differ;
        break;
      }
  std::printf("%s: %zu points, k %u: CPU search %.2f ms, CUDA kernel %.3f ms, %zu rows differ\n", name.c_str(), n, k,
              cpu.stats.search_ms, gpu.stats.search_ms, rows_differ);
  check(gpu.k == cpu.k && gpu.queries() == cpu.queries(), name + ": CUDA result has the CPU's shape");
  check(rows_differ == 0, name + ": CUDA neighbours and distances equal the CPU's");
}

int run() {
  std::string why;
  if (!cuda_knn_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  compare("uniform", 200000, 16);
  compare("clusters", 100000, 10);
  compare("duplicates", 30000, 16);
  compare("uniform", 9, 16);  // fewer points than k
  compare("uniform", 1000000, 16);
  bool refused = false;
  try {
    knn_all_cuda(build_kdtree(points_for("uniform", 100)), KnnParams{.k = kCudaMaxK + 1});
  } catch (const InputError&) {
    refused = true;
  }
  check(refused, "k beyond kCudaMaxK is an InputError");
  std::printf("%d failed\n", failures);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace meniscus::sim::kdtree

int main() {
  try {
    return meniscus::sim::kdtree::run();
  } catch (const std::exception& error) {
    std::printf("FAIL: %s\n", error.what());
    return 1;
  }
}
