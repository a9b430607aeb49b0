#pragma once
#include <memory>

#include "sim/ballistic/ballistic_params.h"
#include "sim/common/particle_stage.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim {

// CUDA backend: the same per-particle code as the CPU one, one thread per particle, writing
// straight into the Vulkan-exported shared buffer and signalling the shared timeline.
// Throws DeviceError when built without CUDA or when no CUDA device matches.
std::unique_ptr<ParticleStage> make_ballistic_cuda(const BallisticParams& params, const Context& context);

}  // namespace meniscus::sim
