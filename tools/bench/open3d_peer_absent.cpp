#include "tools/bench/open3d_peer.h"

namespace meniscus::bench {
std::optional<KnnPeerResult> open3d_knn(std::span<const glm::vec3>, uint32_t, std::span<const uint32_t>) {
  return std::nullopt;
}
std::optional<PoissonPeerResult> open3d_poisson(std::span<const glm::vec3>, std::span<const glm::vec3>, int, int, int) {
  return std::nullopt;
}
std::optional<std::vector<float>> open3d_distances_to_mesh(std::span<const glm::vec3>, std::span<const glm::uvec3>,
                                                           std::span<const glm::vec3>) {
  return std::nullopt;
}
const char* open3d_version() { return "not built"; }
}  // namespace meniscus::bench
