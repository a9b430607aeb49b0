// The level-set stage end to end on both backends, as the renderer drives it: an SPH stage
// publishes its particles into a shared buffer (host memory for the CPU, Vulkan memory imported
// into CUDA for CUDA), the level-set stage consumes them, rebuilds itself and writes the frame's
// cube records into another shared buffer. Where the two SPH backends published the same bytes,
// the two record buffers must be the same bytes too. Then the enright scene's stage (16-bit
// tiles, the reinitialisation PDE every 4th step) on both backends, frame by frame.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#if MENISCUS_HAS_CUDA  // a build without the backend has no runtime to read device buffers with
#include <cuda_runtime.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "engine/core/context.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "sim/levelset/levelset_stage.h"
#include "sim/sph/sph_cpu.h"
#include "sim/sph/sph_cuda.h"
#include "sim/sph/sph_frame_plan.h"
#include "sim/sph/sph_stage.h"
#include "tests/sim/sph/dam_break.h"
#include "tests/support/device_checks.h"

namespace meniscus {
namespace {

using device_test::check;

std::vector<std::byte> bytes_of(const SharedBuffer& buffer) {
  std::vector<std::byte> out(buffer.size());
  if (buffer.kind() == SharedMemory::Host) {
    std::memcpy(out.data(), buffer.host_pointer(), out.size());
  } else {
#if MENISCUS_HAS_CUDA
    cudaDeviceSynchronize();  // the records were written on the device's streams
    cudaMemcpy(out.data(), buffer.cuda_pointer(), out.size(), cudaMemcpyDeviceToHost);
#endif
  }
  return out;
}

// The enright scene's stage at 32^3: both backends step the same equation from the same list,
// so each frame's records are the same bytes (CUDA's libm may round the field's sines a last
// ulp apart on a real device: then the counts stay within 1%).
void enright_frames(Context& context) {
  sim::levelset::LevelSetStageParams params;
  params.enright = 32;
  params.scheme = "weno5";
  params.mcf = 0.0f;
  params.precision = sim::levelset::TilePrecision::kFixed16;
  params.steps_per_frame = 4;
  auto cpu = sim::levelset::make_levelset_stage(params, sim::SimBackend::Cpu, context);
  auto cuda = sim::levelset::make_levelset_stage(params, sim::SimBackend::Cuda, context);
  constexpr uint32_t kCapacity = 20000;
  SharedBuffer cpu_records(context, sim::cube_record_buffer_bytes(kCapacity), SharedMemory::Host, "test.enright_cpu");
  SharedBuffer cuda_records(context, sim::cube_record_buffer_bytes(kCapacity), SharedMemory::Cuda, "test.enright_cuda");
  for (int frame = 0; frame < 6; ++frame) {
    const double dt = frame == 0 ? 0.0 : 1.0 / 60.0;
    cpu->step(dt);
    cuda->step(dt);
    cpu->write_records(cpu_records, kCapacity, 0.0f);
    cuda->write_records(cuda_records, kCapacity, 0.0f);
    const std::vector<std::byte> a = bytes_of(cpu_records), b = bytes_of(cuda_records);
    sim::CubeRecordHeader ha, hb;
    std::memcpy(&ha, a.data(), sizeof(ha));
    std::memcpy(&hb, b.data(), sizeof(hb));
    const bool same = ha.count == hb.count && std::memcmp(a.data(), b.data(), sim::cube_record_buffer_bytes(ha.count)) == 0;
    check(ha.count > 100 && (same || std::abs(double(hb.count) / double(ha.count) - 1.0) < 0.01),
          "enright frame " + std::to_string(frame) + ": " + std::to_string(ha.count) + " records (CPU), " +
              std::to_string(hb.count) + " (CUDA), bytes " + (same ? "equal" : "differ"));
  }
}

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  const sim::SphParams sph = test::dam_break_params({0.05715f, 12, 0.5f * 0.05715f, 1e-3f});
  sim::SphCpu cpu_sph(sph);
  auto cuda_sph = sim::make_sph_cuda(sph, context);

  sim::levelset::LevelSetStageParams params;
  params.particles = true;
  params.grid_min = glm::vec3(sph.domain.min[0], sph.domain.min[1], sph.domain.min[2]);
  params.grid_max = glm::vec3(sph.domain.max[0], sph.domain.max[1], sph.domain.max[2]);
  params.voxel_size = sph.particle_radius;
  params.particle_radius = sph.particle_radius;
  params.mcf = 0.08f;
  params.steps_per_frame = 1;
  auto cpu = sim::levelset::make_levelset_stage(params, sim::SimBackend::Cpu, context);
  auto cuda = sim::levelset::make_levelset_stage(params, sim::SimBackend::Cuda, context);
  check(cpu->backend() == sim::SimBackend::Cpu && cuda->backend() == sim::SimBackend::Cuda, "both backends made");

  const VkDeviceSize particle_bytes = cpu_sph.capacity() * sizeof(sim::Particle);
  SharedBuffer cpu_particles(context, particle_bytes, SharedMemory::Host, "test.cpu_particles");
  SharedBuffer cuda_particles(context, particle_bytes, SharedMemory::Cuda, "test.cuda_particles");
  constexpr uint32_t kCapacity = 200000;
  SharedBuffer cpu_records(context, sim::cube_record_buffer_bytes(kCapacity), SharedMemory::Host, "test.cpu_records");
  SharedBuffer cuda_records(context, sim::cube_record_buffer_bytes(kCapacity), SharedMemory::Cuda, "test.cuda_records");

  // Host waits of the level-set stage's frames (where they can be counted), after the first two:
  // the first build waits once and sizes the allocation, the first poll grows it ahead.
  constexpr int kFrames = 6, kWarmFrames = 2;
  uint64_t steady_waits = 0, sph_waits = 0;
  for (int frame = 0; frame < kFrames; ++frame) {
    const double dt = frame == 0 ? 0.0 : 1.0 / 60.0;  // the first frame builds even when paused
    if (dt > 0.0) {
      cpu_sph.step(dt);
      const auto sph_before = device_test::cuda_host_waits();
      cuda_sph->step(dt);
      if (sph_before && frame >= kWarmFrames) sph_waits += *device_test::cuda_host_waits() - *sph_before;
    }
    cpu_sph.write(cpu_particles);
    cuda_sph->write(cuda_particles);
    cpu->consume({&cpu_sph, &cpu_particles, cpu_sph.count(), cpu_sph.particle_radius()});
    cuda->consume({cuda_sph.get(), &cuda_particles, cuda_sph->count(), cuda_sph->particle_radius()});
    cpu->step(dt);
    const auto waits_before = device_test::cuda_host_waits();
    cuda->step(dt);
    const auto none = cuda->write_records(cuda_records, kCapacity, 0.0f);
    if (waits_before && frame >= kWarmFrames) steady_waits += *device_test::cuda_host_waits() - *waits_before;
    const auto needed = cpu->write_records(cpu_records, kCapacity, 0.0f);
    check(!none && cuda->gpu_wait().has_value(), "frame " + std::to_string(frame) + ": CUDA records are ordered by a timeline, not read back");

    const std::vector<std::byte> a = bytes_of(cpu_records), b = bytes_of(cuda_records);
    sim::CubeRecordHeader ha, hb;
    std::memcpy(&ha, a.data(), sizeof(ha));
    std::memcpy(&hb, b.data(), sizeof(hb));
    const bool same_particles = bytes_of(cpu_particles) == bytes_of(cuda_particles);
    const size_t used = sim::cube_record_buffer_bytes(ha.count);
    const bool same_records = ha.count == hb.count && std::memcmp(a.data(), b.data(), used) == 0;
    std::printf("frame %d: %u records (CPU, needed %u), %u (CUDA), particles %s, record bytes %s\n", frame, ha.count,
                needed ? *needed : 0u, hb.count, same_particles ? "equal" : "differ", same_records ? "equal" : "differ");
    check(ha.count > 1000 && ha.count == ha.needed && needed && *needed == ha.needed,
          "frame " + std::to_string(frame) + ": the CPU stage's header counts its records");
    if (same_particles)
      check(same_records, "frame " + std::to_string(frame) + ": the same particles give the same record bytes");
    else
      check(std::abs(double(hb.count) / double(ha.count) - 1.0) < 0.02,
            "frame " + std::to_string(frame) + ": record counts within 2% (the SPH backends' floats differ)");
  }
  if (device_test::cuda_host_waits()) {
    check(steady_waits == 0, "the level-set stage's frames after the first " + std::to_string(kWarmFrames) +
                                 " (build, records) waited for the device " + std::to_string(steady_waits) + " times");
    check(sph_waits == 0, "the SPH stage's steps of those frames (records read " + std::to_string(sim::sph::kPlanLag) +
                              " frames late) waited for the device " + std::to_string(sph_waits) + " times");
  }
  const sim::CubeRecordSet& exported = cuda->records(0.0f);  // downloads the list, as --export-mesh does
  check(std::abs(double(cuda->tiles()) / double(cpu->tiles()) - 1.0) < 0.02, "the two lists hold as many tiles");
  sim::CubeRecordHeader last;
  std::memcpy(&last, bytes_of(cuda_records).data(), sizeof(last));
  check(exported.records.size() == last.count, "records() after a download holds the device's records");
  enright_frames(context);
  check(context.validation_error_count() == 0, "no validation errors");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus

int main() { return meniscus::device_test::run_main(meniscus::run); }
