#pragma once
// Reads a scene's [[stage]] type = "caustics_pool" table into PoolParams (InputError naming
// the file, line and field for a bad value).
#include "engine/app/param_table.h"
#include "sim/raytrace/caustics_pool.h"

namespace meniscus {

sim::raytrace::PoolParams read_caustics_pool_settings(const ParamTable& table);

}  // namespace meniscus
