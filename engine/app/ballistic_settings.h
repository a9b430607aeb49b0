#pragma once
// Reads a scene's [[stage]] type = "ballistic" table into BallisticParams (InputError naming
// the file, line and field for a bad value).
#include "engine/app/param_table.h"
#include "engine/app/scene.h"
#include "sim/ballistic/ballistic_params.h"

namespace meniscus {

sim::BallisticParams read_ballistic_settings(const ParamTable& table, const Scene& scene);

}  // namespace meniscus
