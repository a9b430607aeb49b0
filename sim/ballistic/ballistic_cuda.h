#pragma once
#include <memory>

#include "sim/ballistic/ballistic_params.h"
#include "sim/common/particle_stage.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim {

// CUDA backend: the same per-particle code as the CPU one (ballistic_math.h), one thread per
// particle. write() waits on its stream for the renderer's "done reading" value (when the
// renderer took one from gpu_done_reading()), publishes straight into the Vulkan-exported
// shared buffer and signals "written" (gpu_wait()) on the one shared timeline.
// Throws InputError for bad params, DeviceError when built without CUDA or when no CUDA device
// matches the Vulkan device.
std::unique_ptr<ParticleStage> make_ballistic_cuda(const BallisticParams& params, const Context& context);

}  // namespace meniscus::sim
