// Without libembree-dev: no Embree peer (embree_peer.h).
#include "tools/bench/embree_peer.h"

namespace meniscus::bench {

std::unique_ptr<EmbreeScene> embree_scene(const std::string&, int) { return nullptr; }
const char* embree_version() { return "none (apt-get install libembree-dev)"; }

}  // namespace meniscus::bench
