#include "tools/bench/vtk_flying_edges.h"

namespace meniscus::bench {
std::unique_ptr<FlyingEdgesRunner> FlyingEdgesRunner::create(const FlyingEdgesInput&) { return nullptr; }
const char* vtk_flying_edges_version() { return "not built"; }
}  // namespace meniscus::bench
