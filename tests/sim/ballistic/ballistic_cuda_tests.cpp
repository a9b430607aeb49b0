// The ballistic stage's CUDA backend against its CPU backend on a real NVIDIA device: the same
// particles after many frames, published through a CUDA-shared buffer that Vulkan reads in the
// order the shared timeline gives ("written" -> copy -> "done reading" -> next write).
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "sim/ballistic/ballistic_cpu.h"
#include "sim/ballistic/ballistic_stage.h"
#include "tests/support/device_checks.h"
#include "tests/unit/interop/stage_read_back.h"

namespace meniscus {
namespace {

using device_test::check;

void compare(const std::vector<sim::Particle>& cpu, const std::vector<sim::Particle>& gpu, const char* when) {
  size_t close = 0, identical = 0;
  double mean_cpu = 0, mean_gpu = 0;
  for (size_t i = 0; i < cpu.size(); ++i) {
    double d = 0;
    for (int k = 0; k < 3; ++k) d = std::max(d, double(std::abs(cpu[i].position[k] - gpu[i].position[k])));
    close += d < 1e-3;
    identical += std::memcmp(&cpu[i], &gpu[i], sizeof(sim::Particle)) == 0;
    mean_cpu += cpu[i].position[1];
    mean_gpu += gpu[i].position[1];
  }
  mean_cpu /= double(cpu.size());
  mean_gpu /= double(cpu.size());
  std::printf("%s: %zu of %zu particles within 1 mm (%zu bit-identical), mean height %.6f (CPU) vs %.6f (CUDA)\n",
              when, close, cpu.size(), identical, mean_cpu, mean_gpu);
  // CPU and CUDA sinf/cosf differ by an ulp here and there at spawn; a bounce decided by one
  // ulp can move a particle by one step's travel, so a few may differ by more than 1 mm.
  check(close >= cpu.size() * 999 / 1000, std::string(when) + ": 99.9% of particles agree within 1 mm");
  check(std::abs(mean_cpu - mean_gpu) < 1e-3, std::string(when) + ": mean height agrees within 1 mm");
  check(std::all_of(gpu.begin(), gpu.end(), [](const sim::Particle& p) { return p.density == 1.0f; }),
        std::string(when) + ": CUDA particles carry density 1");
}

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  {
    sim::BallisticParams params;
    params.count = 20011;  // not a multiple of the block size
    sim::BallisticCpu cpu(params);
    auto cuda = sim::make_ballistic_stage(params, sim::SimBackend::Cuda, context);
    check(cuda->backend() == sim::SimBackend::Cuda && cuda->count() == params.count, "CUDA stage created");
    SharedBuffer shared(context, params.count * sizeof(sim::Particle), SharedMemory::Cuda, "test.particles");

    // Frame 0 (the fountain starts full), then 120 and 300 frames: the second write waits for
    // the first copy's "done reading".
    cpu.step(0.0);
    cuda->step(0.0);
    cuda->write(shared);
    compare(cpu.particles(), test::read_back(context, *cuda, shared), "frame 0");
    for (int frame = 0; frame < 120; ++frame) {
      cpu.step(1.0 / 60.0);
      cuda->step(1.0 / 60.0);
    }
    cuda->write(shared);
    compare(cpu.particles(), test::read_back(context, *cuda, shared), "frame 120");
    for (int frame = 120; frame < 300; ++frame) {
      cpu.step(1.0 / 60.0);
      cuda->step(1.0 / 60.0);
    }
    cuda->write(shared);
    compare(cpu.particles(), test::read_back(context, *cuda, shared), "frame 300");
    check(cuda->device_ms().has_value(), "CUDA stage reports its kernel time");

    // A host buffer is not a target for the CUDA backend.
    SharedBuffer host(context, shared.size(), SharedMemory::Host, "test.host");
    bool refused = false;
    try {
      cuda->write(host);
    } catch (const DeviceError&) {
      refused = true;
    }
    check(refused, "CUDA stage refuses a host shared buffer");
  }
  {
    // A step that overflows (launched upwards at 1e38 m/s from 3.4e38 m) is a DeviceError that
    // names the stage and the same lowest particle index as the CPU backend.
    sim::BallisticParams params;
    params.count = 1000;
    params.emitter_center[1] = 3.4e38f;
    params.speed_min = params.speed_max = 1.0e38f;
    params.spread_degrees = 0.0f;
    auto message_of = [](sim::ParticleStage& stage) {
      try {
        stage.step(1.0 / 60.0);
      } catch (const DeviceError& error) {
        return std::string(error.what());
      }
      return std::string("no error");
    };
    auto index_of = [](const std::string& message) {
      const size_t at = message.find("particle ");
      return at == std::string::npos ? std::string("?") : message.substr(at + 9, message.find(' ', at + 9) - at - 9);
    };
    sim::BallisticCpu cpu(params);
    auto cuda = sim::make_ballistic_stage(params, sim::SimBackend::Cuda, context);
    const std::string cpu_message = message_of(cpu), cuda_message = message_of(*cuda);
    std::printf("non-finite step: CPU '%s', CUDA '%s'\n", cpu_message.c_str(), cuda_message.c_str());
    check(cuda_message.find("ballistic (cuda): particle ") != std::string::npos &&
              index_of(cuda_message) == index_of(cpu_message),
          "a non-finite CUDA step is a DeviceError naming the stage and the CPU's particle index");
  }
  check(context.validation_error_count() == 0, "no validation errors");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus

int main() { return meniscus::device_test::run_main(meniscus::run); }
