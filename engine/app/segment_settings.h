#pragma once
// Reads a scene's [[stage]] type = "segment" table into SegmentationStageParams (InputError
// naming the file, line and field).
#include "engine/app/param_table.h"
#include "engine/app/scene.h"
#include "sim/levelset/segmentation_stage.h"

namespace meniscus {

sim::levelset::SegmentationStageParams read_segment_settings(const ParamTable& table, const Scene& scene);

}  // namespace meniscus
