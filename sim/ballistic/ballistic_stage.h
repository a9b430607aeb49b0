#pragma once
// A deterministic fountain: particles launched in a cone, falling under gravity, bouncing on
// the ground and respawning after their lifetime. The renderer's first light, and the
// simplest ParticleStage with both backends.
#include <memory>

#include "sim/ballistic/ballistic_params.h"
#include "sim/common/particle_stage.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim {

std::unique_ptr<ParticleStage> make_ballistic_stage(const BallisticParams& params, SimBackend backend,
                                                    const Context& context);

// The CPU backend directly, for tests that need no Vulkan device.
std::unique_ptr<ParticleStage> make_ballistic_cpu(const BallisticParams& params);

}  // namespace meniscus::sim
