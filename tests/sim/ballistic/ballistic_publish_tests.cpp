// The ballistic stage through its ParticleStage face: the factory, the CPU backend publishing
// into a host SharedBuffer that the GPU then reads (lavapipe here), and its errors.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "sim/ballistic/ballistic_cpu.h"
#include "sim/ballistic/ballistic_stage.h"
#include "tests/unit/interop/timeline_submit.h"

namespace meniscus::sim {

using Catch::Matchers::Contains;

TEST_CASE("the CPU stage publishes its particles into a host shared buffer the GPU reads", "[ballistic][publish]") {
  Context context(ContextOptions{.validation = true});
  {
    BallisticParams params;
    params.count = 3001;
    auto stage = make_ballistic_stage(params, SimBackend::Cpu, context);
    REQUIRE(stage->backend() == SimBackend::Cpu);
    REQUIRE(stage->count() == params.count);
    CHECK(stage->name() == "ballistic");
    for (int frame = 0; frame < 30; ++frame) stage->step(1.0 / 60.0);

    SharedBuffer shared(context, stage->count() * sizeof(Particle), SharedMemory::Host, "test.particles");
    std::memset(shared.host_pointer(), 0xFF, shared.size());  // NaNs unless written
    stage->write(shared);
    Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
    submit_and_wait(context, [&](VkCommandBuffer cmd) {
      test::record_copy_to_host(cmd, shared.buffer(), readback.handle(), shared.size());
    });
    readback.invalidate();
    CHECK_FALSE(stage->gpu_wait(shared).has_value());  // the host wrote it before the submit
    const std::vector<Particle> expected = static_cast<BallisticCpu&>(*stage).particles();
    CHECK(std::memcmp(readback.mapped(), expected.data(), shared.size()) == 0);
    const auto* gpu = static_cast<const Particle*>(readback.mapped());
    CHECK(gpu[0].density == 1.0f);
    CHECK(gpu[params.count - 1].density == 1.0f);

    SharedBuffer small(context, (stage->count() - 1) * sizeof(Particle), SharedMemory::Host, "test.small");
    CHECK_THROWS_WITH(stage->write(small), Contains("too small"));
  }
  REQUIRE(context.validation_error_count() == 0);
}

TEST_CASE("the factory checks parameters before it asks for a device", "[ballistic][errors]") {
  Context context(ContextOptions{.validation = true});
  BallisticParams bad;
  bad.particle_lifetime = -1.0f;
  CHECK_THROWS_WITH(make_ballistic_stage(bad, SimBackend::Cpu, context), Contains("ballistic.particle_lifetime"));
  CHECK_THROWS_WITH(make_ballistic_stage(bad, SimBackend::Cuda, context), Contains("ballistic.particle_lifetime"));
  CHECK_THROWS_AS(make_ballistic_stage(bad, SimBackend::Cuda, context), InputError);
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    // Explicitly asking for CUDA without a device is an error that says why, never the CPU.
    BallisticParams good;
    good.count = 10;
    CHECK_THROWS_AS(make_ballistic_stage(good, SimBackend::Cuda, context), DeviceError);
    CHECK_THROWS_WITH(make_ballistic_stage(good, SimBackend::Cuda, context), Contains("ballistic"));
  }
  REQUIRE(context.validation_error_count() == 0);
}

}  // namespace meniscus::sim
