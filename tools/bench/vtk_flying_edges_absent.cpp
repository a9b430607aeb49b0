#include "tools/bench/vtk_flying_edges.h"

namespace meniscus::bench {
bool run_vtk_flying_edges(const FlyingEdgesInput&, FlyingEdgesRun&) { return false; }
const char* vtk_flying_edges_version() { return "not built"; }
}  // namespace meniscus::bench
