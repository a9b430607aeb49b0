#include "tools/bench/peers.h"

namespace meniscus::bench {
std::optional<PeerResult> vtk_flying_edges(const sim::Volume&, float, int, int) { return std::nullopt; }
const char* vtk_version() { return "not built"; }
}  // namespace meniscus::bench
