#include "tools/bench/vtk_mip.h"

namespace meniscus::bench {
bool run_vtk_mip(const VtkMipInput&, VtkMipRun& out) {
  out.error = "meniscus-bench was built without VTK (apt-get install libvtk9-dev)";
  return false;
}
const char* vtk_mip_version() { return "not built"; }
}  // namespace meniscus::bench
