#include "tools/bench/peers.h"

namespace meniscus::bench {
std::optional<LevelSetPeerResult> openvdb_mean_curvature(float, glm::vec3, int) { return std::nullopt; }
std::optional<LevelSetPeerResult> openvdb_mesh_mean_curvature(std::span<const std::array<float, 3>>,
                                                              std::span<const std::array<uint32_t, 3>>, float, int) {
  return std::nullopt;
}
const char* openvdb_version() { return "not built"; }
std::optional<EnrightPeerResult> openvdb_enright(int, float) { return std::nullopt; }
const char* openvdb_enright_version() { return "not built"; }
}  // namespace meniscus::bench
