#pragma once
// Reads a scene's [[stage]] type = "levelset" table into LevelSetStageParams (InputError
// naming the file, line and field). A level set from particles names its producer in
// `particles`; the registry resolves that name, this reader takes the producer's facts.
#include "engine/app/param_table.h"
#include "engine/app/scene.h"
#include "engine/app/stage_registry.h"
#include "sim/levelset/levelset_stage.h"

namespace meniscus {

// `producer`: the facts of the stage named by `particles`, when the table has that key.
sim::levelset::LevelSetStageParams read_levelset_settings(const ParamTable& table, const Scene& scene,
                                                          const StageFacts* producer);

}  // namespace meniscus
