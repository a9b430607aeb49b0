#pragma once
// Reads a scene's [[stage]] type = "sph" table (and its [[stage.fill]], [[stage.box]],
// [[stage.plane]], [[stage.emitter]], [[stage.sink]] arrays) into SphParams. Every key is
// checked through ParamTable, so a bad value names the file, the line and the field; the
// cross-field checks (a fill outside the domain, a capacity too small) come from
// SphParams::validate() and are re-located at the stage's table.
#include "engine/app/param_table.h"
#include "sim/sph/sph_params.h"

namespace meniscus {

sim::SphParams read_sph_settings(const ParamTable& table);

}  // namespace meniscus
