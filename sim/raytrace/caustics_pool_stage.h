#pragma once
// The caustics pool (caustics_pool.h) as a stage: each step advances time, rebuilds the water's
// mesh, its kd-tree and the photon map, and traces the frame; write() publishes it. The panel
// moves the sun and sets the waves. CPU backend only, for now: the CUDA tree and tracer are
// not built, and asking for them is a DeviceError that says so.
#include <memory>

#include "sim/common/backend.h"
#include "sim/common/traced_image_stage.h"
#include "sim/raytrace/caustics_pool.h"

namespace meniscus::sim::raytrace {

// InputError for bad params (PoolParams::validate), DeviceError for the CUDA backend.
std::unique_ptr<TracedImageStage> make_caustics_pool_stage(const PoolParams& params, SimBackend backend);

}  // namespace meniscus::sim::raytrace
