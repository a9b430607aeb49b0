#pragma once
#include <memory>

#include "sim/sph/sph_stage.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim {

// CUDA backend: the CPU backend's algorithm kernel for kernel (sph_ops.h is shared): Z-order
// counting sort with atomics + per-cell ordering, flat neighbour lists, DFSPH's two solvers,
// emitters and sinks on the device. Stepping never waits for the GPU but once a frame, for the
// previous frame's record (sph_cuda_stage.cuh), so count() and stats() are a frame late until
// synchronize(). write() waits for the renderer's "done reading" value, publishes straight into
// the Vulkan-exported shared buffer and signals "written" on the timeline (see ParticleStage).
// Throws DeviceError when built without CUDA or when no CUDA device matches the Vulkan device.
std::unique_ptr<SphStage> make_sph_cuda(const SphParams& params, const Context& context);

// Without Vulkan (tests, benchmark): the CUDA backend on CUDA device 0, publishing to host.
// Throws DeviceError when no CUDA device answers.
std::unique_ptr<SphStage> make_sph_cuda_headless(const SphParams& params);

}  // namespace meniscus::sim
