// Without libembree-dev: no Embree peer (embree_peer.h).
#include "tools/bench/embree_peer.h"

namespace meniscus::bench {

std::unique_ptr<EmbreeScene> embree_build(std::span<const glm::vec3>, std::span<const uint32_t>, const std::string&, int) {
  return nullptr;
}
const char* embree_version() { return "none (apt-get install libembree-dev)"; }

}  // namespace meniscus::bench
