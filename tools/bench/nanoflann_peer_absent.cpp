#include "tools/bench/peers.h"

namespace meniscus::bench {
std::optional<KnnPeerResult> nanoflann_knn(std::span<const glm::vec3>, uint32_t, std::span<const uint32_t>) {
  return std::nullopt;
}
const char* nanoflann_version() { return "not built"; }
}  // namespace meniscus::bench
