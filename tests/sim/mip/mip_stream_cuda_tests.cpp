// The MIP coefficient stream built on CUDA against the CPU reference: the same base, the same
// details in the same order, the same running auxiliary error, bit for bit; on random volumes
// (padding on every axis, one to three levels), the CT head, and the degenerate cases (all
// zero: nothing to draw; constant: the base alone). Then the stage: the stream in the
// Vulkan-exported SharedBuffer, read back through Vulkan, is the CPU's. Exits with
// MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "sim/mip/coefficient_stream_cuda.h"
#include "sim/mip/coefficient_stream_stage.h"
#include "tests/sim/mip/mip_test_volumes.h"
#include "tests/support/device_checks.h"

namespace meniscus {
namespace {

using device_test::check;
using sim::mip::CoefficientStream;
using sim::mip::PackedCoefficient;

bool same(const std::vector<PackedCoefficient>& a, const std::vector<PackedCoefficient>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof a[0]) == 0);
}

CoefficientStream cpu_stream(const sim::mip::GreyVolume& volume, uint32_t levels) {
  return sim::mip::build_coefficient_stream(sim::mip::build_adjunction_pyramid(volume, levels));
}

void compare(const std::string& what, const sim::mip::GreyVolume& volume, uint32_t levels) {
  const CoefficientStream cpu = cpu_stream(volume, levels);
  double ms = 0;
  const CoefficientStream gpu = sim::mip::build_coefficient_stream_cuda(volume, levels, &ms);
  std::printf("%s: %zu base, %zu details (CUDA build %.2f ms)\n", what.c_str(), cpu.base.size(), cpu.details.size(),
              ms);
  check(gpu.index.padded_dims == cpu.index.padded_dims && gpu.index.levels == levels &&
            gpu.index.base_count == cpu.index.base_count,
        what + ": same padded size, levels and base count");
  check(same(gpu.base, cpu.base), what + ": the same base");
  check(same(gpu.details, cpu.details), what + ": the same details in the same order");
  check(gpu.index.removed_error == cpu.index.removed_error, what + ": the same running auxiliary error");
}

sim::mip::GreyVolume constant_volume(glm::uvec3 dims, uint16_t value) {
  sim::mip::GreyVolume v;
  v.dims = dims;
  v.values.assign(size_t(dims.x) * dims.y * dims.z, value);
  return v;
}

// What the stage's SharedBuffer holds, copied out through Vulkan.
std::vector<PackedCoefficient> read_back(const Context& context, const sim::mip::CoefficientStreamStage& stage) {
  const SharedBuffer& shared = stage.coefficients();
  Buffer readback(context, shared.size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  submit_and_wait(context, [&](VkCommandBuffer cmd) {
    const VkBufferCopy region{0, 0, shared.size()};
    vkCmdCopyBuffer(cmd, shared.buffer(), readback.handle(), 1, &region);
  });
  readback.invalidate();
  const auto* first = static_cast<const PackedCoefficient*>(readback.mapped());
  return {first, first + stage.index().base_count + stage.index().detail_count()};
}

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  compare("random 30x17x22, 2 levels", testing::random_grey_volume({30, 17, 22}, 7), 2);
  compare("random 41x64x19, 1 level", testing::random_grey_volume({41, 64, 19}, 11), 1);
  compare("random 70x45x33, 3 levels", testing::random_grey_volume({70, 45, 33}, 5), 3);
  compare("CT head, 3 levels", testing::ct_head(), 3);
  compare("all zero", constant_volume({16, 9, 12}, 0), 2);
  compare("constant", constant_volume({16, 9, 12}, 500), 2);

  const sim::mip::GreyVolume head = testing::ct_head();
  const CoefficientStream cpu = cpu_stream(head, 3);
  std::vector<PackedCoefficient> all(cpu.base);
  all.insert(all.end(), cpu.details.begin(), cpu.details.end());
  for (sim::SimBackend backend : {sim::SimBackend::Cpu, sim::SimBackend::Cuda}) {
    const std::string name = std::string("stage (") + sim::backend_name(backend) + ")";
    const sim::mip::CoefficientStreamStage stage(context, head, 3, backend);
    check(stage.coefficients().kind() == (backend == sim::SimBackend::Cuda ? SharedMemory::Cuda : SharedMemory::Host),
          name + ": the coefficients live in the backend's kind of shared memory");
    check(same(read_back(context, stage), all), name + ": Vulkan reads the CPU's stream from the shared buffer");
    check(stage.index().removed_error == cpu.index.removed_error, name + ": the same running auxiliary error");
  }
  try {
    sim::mip::CoefficientStreamStage(context, head, 7, sim::SimBackend::Cuda);
    check(false, "7 levels of a volume 64 voxels across are refused");
  } catch (const InputError& error) {
    check(std::string(error.what()).find("levels") != std::string::npos, std::string("too many levels: ") + error.what());
  }
  check(context.validation_error_count() == 0, "no validation errors");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus

int main() { return meniscus::device_test::run_main(meniscus::run); }
