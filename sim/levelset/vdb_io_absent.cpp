#include "engine/core/error.h"
#include "sim/levelset/vdb_io.h"

namespace meniscus::sim::levelset {

bool vdb_supported() { return false; }

LevelSetFile read_vdb(const std::filesystem::path& path) {
  throw InputError(path.string() + ": Meniscus was built without OpenVDB (apt-get install libopenvdb-dev, rebuild)");
}

void write_vdb(const std::filesystem::path& path, const SortedTileList&, glm::ivec3, float) {
  throw InputError(path.string() + ": Meniscus was built without OpenVDB (apt-get install libopenvdb-dev, rebuild)");
}

}  // namespace meniscus::sim::levelset
