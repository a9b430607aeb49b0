#pragma once
#include "engine/app/cli.h"

namespace meniscus {
// Runs `meniscus levelset`: loads a .vdb level set or scan-converts a closed mesh, evolves it
// (normal speed, mean-curvature flow) with a progress line, writes a .vdb and prints a timing
// summary. Returns the exit code.
int evolve_level_set(const LevelSetOptions& options);
}  // namespace meniscus
