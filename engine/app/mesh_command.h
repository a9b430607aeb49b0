#pragma once
#include "engine/app/cli.h"

namespace meniscus {
// Runs `meniscus mesh`: loads the volume, extracts the iso-surface, writes the indexed mesh
// and prints cells, triangles and times. Returns the exit code.
int mesh_volume(const MeshOptions& options);
}  // namespace meniscus
