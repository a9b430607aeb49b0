#pragma once
#include "engine/app/cli.h"

namespace meniscus {
// Runs `meniscus reconstruct`: reads a point cloud (.ply/.obj vertices), reconstructs its surface
// level by level (progress per level: iterations, tiles, time, error E), and writes the level-D
// level set as .vdb or its zero iso-surface as a .ply mesh. Returns the exit code.
int reconstruct_points(const ReconstructOptions& options);
}  // namespace meniscus
