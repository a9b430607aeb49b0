// The CUDA tracer and photons against the CPU's: the same tree and scene give the same image,
// the same ray counts and the same photons, and the same photons the same caustic to the bit,
// for the caustics pool in its glass tank (three media, the caustic on the floor, adaptive
// depth) and for a smooth lens (interpolated normals, supersampling), over the CPU-built tree
// and over the tree built on the device; and the caustics pool stage on the CUDA backend (its
// tree and its caustic made on the device) publishes, through the timeline, the CPU stage's
// frame.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/vec3.hpp>
#include <string>
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "sim/photon/caustic_image.h"
#include "sim/photon/caustic_photons.h"
#include "sim/photon/caustic_photons_cuda.h"
#include "sim/raytrace/caustics_pool.h"
#include "sim/raytrace/refraction_frame.h"
#include "sim/raytrace/refraction_stages.h"
#include "sim/raytrace/whitted_cuda.h"
#include "tests/support/device_checks.h"
#include "tests/unit/interop/timeline_submit.h"

namespace meniscus::sim::raytrace {
namespace {

using device_test::check;

// The share of pixels within 1e-4 of the CPU's in every channel, and the largest difference.
// The CUDA device's expf and tanf differ from the host's in the last bits; a ray that one
// rounding sends past an edge can change its pixel entirely, so a few may differ more.
void compare(const std::vector<glm::vec3>& cpu, const std::vector<glm::vec3>& gpu, const std::string& what) {
  size_t close = 0, identical = 0;
  float worst = 0.0f;
  double mean_cpu = 0.0, mean_gpu = 0.0;
  for (size_t i = 0; i < cpu.size() && i < gpu.size(); ++i) {
    const glm::vec3 d = glm::abs(cpu[i] - gpu[i]);
    const float largest = std::max({d.x, d.y, d.z});
    worst = std::max(worst, largest);
    close += largest <= 1e-4f;
    identical += cpu[i] == gpu[i];
    mean_cpu += cpu[i].x + cpu[i].y + cpu[i].z;
    mean_gpu += gpu[i].x + gpu[i].y + gpu[i].z;
  }
  std::printf("%s: %zu of %zu pixels within 1e-4 (%zu identical), largest difference %.3g, mean %.6f vs %.6f\n",
              what.c_str(), close, cpu.size(), identical, worst, mean_cpu / cpu.size(), mean_gpu / cpu.size());
  check(gpu.size() == cpu.size(), what + ": the CUDA image has the CPU's size");
  check(close >= cpu.size() * 999 / 1000, what + ": 99.9% of pixels agree within 1e-4");
  check(std::abs(mean_cpu - mean_gpu) <= 1e-4 * std::abs(mean_cpu), what + ": the mean agrees within 1e-4");
}

// The photons stored on the floor, in photon order. Where a device's rounding sends one photon
// the other way at a Russian roulette, the rest shift along: compared by their count and where
// they land on average.
void compare_photons(const photon::CausticPhotons& cpu, const photon::CausticPhotons& gpu, const std::string& what) {
  glm::dvec3 mean_cpu(0.0), mean_gpu(0.0);
  for (const glm::vec3& p : cpu.positions) mean_cpu += glm::dvec3(p);
  for (const glm::vec3& p : gpu.positions) mean_gpu += glm::dvec3(p);
  mean_cpu /= double(std::max<size_t>(cpu.positions.size(), 1));
  mean_gpu /= double(std::max<size_t>(gpu.positions.size(), 1));
  std::printf(
      "%s: photons stored %u of %u (CPU), %u (CUDA); identical lists: %s; mean landing (%.6f, %.6f) vs "
      "(%.6f, %.6f)\n",
      what.c_str(), cpu.stored, cpu.emitted, gpu.stored, cpu.positions == gpu.positions ? "yes" : "no", mean_cpu.x,
      mean_cpu.z, mean_gpu.x, mean_gpu.z);
  check(cpu.stored > 0 && std::abs(double(cpu.stored) - double(gpu.stored)) <= 1e-3 * cpu.stored &&
            gpu.emitted == cpu.emitted && gpu.power_per_photon == cpu.power_per_photon,
        what + ": the CUDA photons are stored as often as the CPU's (within 0.1%)");
  check(glm::length(mean_cpu - mean_gpu) < 1e-4,
        what + ": the CUDA photons land where the CPU's do (mean within 0.1 mm)");
}

void compare_traces(const photon::OpticalMesh& scene, const std::vector<glm::vec3>& normals, const TraceCamera& camera,
                    const TraceParams& params, float floor_y, bool with_caustic, const std::string& what) {
  const photon::TriangleSoup& mesh = scene.mesh;
  const kdtree::TriangleKdTree tree = kdtree::build_triangle_kdtree(mesh.vertices, mesh.indices);
  const KdTreeIntersector surface(tree);
  TraceScene traced;
  traced.surface = &surface;
  traced.vertices = mesh.vertices;
  traced.indices = mesh.indices;
  traced.normals = normals;
  traced.optics = &scene.optics;
  traced.floor_y = floor_y;
  traced.floor_tile = 0.25f;
  photon::CausticImage caustics;
  if (with_caustic) {
    photon::Sun sun;
    sun.direction = glm::normalize(glm::vec3(-0.2f, -1.0f, 0.1f));
    sun.emit_min = {-1.0f, -1.0f};
    sun.emit_max = {1.0f, 1.0f};
    sun.emit_y = 2.0f;
    const photon::RefractingSurface refracting{mesh.vertices, mesh.indices, &tree, &scene.optics, normals};
    const photon::CausticPhotons photons = photon::trace_caustic_photons(refracting, sun, floor_y, {.photons = 40000});
    const photon::CausticPhotons device_photons =
        photon::trace_caustic_photons_cuda(refracting, sun, floor_y, {.photons = 40000});
    compare_photons(photons, device_photons, what);
    const photon::FloorGrid grid{{-1.0f, -1.0f}, {1.0f, 1.0f}, floor_y, 64, 64};
    caustics = photon::estimate_caustics(photons, grid, 32);
    const photon::CausticImage on_device = photon::estimate_caustics_cuda(photons, grid, 32);
    check(on_device.k == caustics.k && on_device.irradiance == caustics.irradiance && caustics.mean() > 0.0,
          what + ": the photon tree and the estimate on the device give the CPU's caustic to the bit");
    double ms = 0.0;
    photon::CausticPhotons counted;
    const photon::CausticImage whole =
        photon::estimate_caustics_cuda(refracting, sun, floor_y, {.photons = 40000}, grid, 32, ms, counted);
    std::printf("%s: caustic mean %.6f (CPU), %.6f (wholly on the device, %.2f ms)\n", what.c_str(), caustics.mean(),
                whole.mean(), ms);
    check(counted.stored == device_photons.stored && std::abs(whole.mean() - caustics.mean()) <= 1e-3 * caustics.mean(),
          what + ": the caustic made wholly on the device is the CPU's (its photons, mean within 0.1%)");
    traced.caustics = &caustics;
    traced.to_sun = -sun.direction;
  }
  const TraceImage cpu = trace_image(traced, camera, params);
  const TraceImage gpu = trace_image_cuda(tree, traced, camera, params);
  compare(cpu.rgb, gpu.rgb, what);
  double build_ms = 0.0;
  compare(cpu.rgb, build_and_trace_cuda(traced, camera, params, build_ms).rgb, what + ", its tree built on the device");
  std::printf("%s: rays: %llu hits, %llu secondary, %llu shadow (CPU) vs %llu, %llu, %llu (CUDA)\n", what.c_str(),
              (unsigned long long)cpu.stats.hits, (unsigned long long)cpu.stats.secondary,
              (unsigned long long)cpu.stats.shadow, (unsigned long long)gpu.stats.hits,
              (unsigned long long)gpu.stats.secondary, (unsigned long long)gpu.stats.shadow);
  auto near = [](uint64_t a, uint64_t b) { return std::abs(double(a) - double(b)) <= 1e-3 * double(a); };
  check(cpu.stats.hits > 0 && near(cpu.stats.hits, gpu.stats.hits) && near(cpu.stats.secondary, gpu.stats.secondary) &&
            near(cpu.stats.shadow, gpu.stats.shadow) && gpu.stats.primary == cpu.stats.primary,
        what + ": the CUDA tracer traces the CPU's rays (counts within 0.1%)");
}

// The caustics pool stage on both backends, published and read back through Vulkan.
void compare_stages(const Context& context) {
  PoolParams pool;
  pool.grid = 24;
  pool.view.photons = 20000;
  pool.view.trace.width = 96;
  pool.view.trace.height = 64;
  auto cpu = make_caustics_pool_stage(pool, SimBackend::Cpu);
  auto gpu = make_caustics_pool_stage(pool, SimBackend::Cuda, &context);
  check(gpu->backend() == SimBackend::Cuda, "caustics pool stage: created on the CUDA backend");
  cpu->step(0.25);
  gpu->step(0.25);
  const size_t bytes = size_t(pool.view.trace.width) * pool.view.trace.height * sizeof(TracedPixel);
  SharedBuffer host(context, bytes, SharedMemory::Host, "test.cpu_image");
  SharedBuffer shared(context, bytes, SharedMemory::Cuda, "test.cuda_image");
  cpu->write(host);
  gpu->write(shared);
  const auto written = gpu->gpu_wait();
  check(written.has_value() && !cpu->gpu_wait(), "caustics pool stage: the CUDA backend hands out a timeline wait");
  if (!written) return;
  Buffer readback(context, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "test.readback");
  {
    test::TimelineSubmit copy(
        context,
        [&](VkCommandBuffer cmd) { test::record_copy_to_host(cmd, shared.buffer(), readback.handle(), bytes); },
        written->semaphore, written->value, 0);
    copy.finish();
  }
  readback.invalidate();
  const auto* published = static_cast<const TracedPixel*>(readback.mapped());
  const auto* expected = static_cast<const TracedPixel*>(host.host_pointer());
  std::vector<glm::vec3> a, b;
  for (size_t i = 0; i < bytes / sizeof(TracedPixel); ++i) a.emplace_back(expected[i]), b.emplace_back(published[i]);
  compare(a, b, "caustics pool stage, published");
  gpu->step(0.25);  // the trace's device time is the frame before's
  check(gpu->device_ms().has_value() && *gpu->device_ms() > 0.0,
        "caustics pool stage: the CUDA backend reports its device time");

  bool refused = false;
  try {
    gpu->write(host);
  } catch (const DeviceError&) {
    refused = true;
  }
  check(refused, "caustics pool stage: the CUDA backend refuses a host shared buffer");

  refused = false;
  PoolParams wide = pool;
  wide.view.photon_neighbours = photon::kCudaMaxCausticK + 1;
  try {
    make_caustics_pool_stage(wide, SimBackend::Cuda, &context);
  } catch (const InputError& e) {
    refused = std::string(e.what()).find("photon_neighbours") != std::string::npos;
  }
  check(refused, "caustics pool stage: more neighbours than the device estimate keeps is refused, naming the field");
}

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  PoolParams pool;
  pool.grid = 32;
  compare_traces(pool_scene(pool, 0.4), {}, pool.view.camera, {160, 96, 6, 1, 0.02f}, -pool.glass_wall - 0.01f, true,
                 "caustics pool in its tank");
  photon::OpticalMesh lens{photon::water_block(40, {0.1f, 0.1f}, {0.9f, 0.9f}, 0.05f,
                                               [](float x, float z) {
                                                 const float rr = (x - 0.5f) * (x - 0.5f) + (z - 0.5f) * (z - 0.5f);
                                                 return 0.4f + 0.06f * std::cos(10.0f * std::sqrt(rr));
                                               }),
                           photon::kWaterInAir};
  compare_traces(lens, vertex_normals(lens.mesh), {{0.5f, 1.2f, -0.7f}, {0.5f, 0.2f, 0.5f}, 50.0f},
                 {80, 60, 3, 2, 0.0f}, 0.0f, true, "smooth lens, 2x2 supersampled");
  compare_stages(context);

  bool refused = false;
  try {
    const kdtree::TriangleKdTree tree;
    trace_image_cuda(tree, TraceScene{}, TraceCamera{}, {0, 0, 2});
  } catch (const InputError&) {
    refused = true;
  }
  check(refused, "an empty image is an InputError on the CUDA backend too");
  refused = false;
  try {
    photon::estimate_caustics_cuda(photon::CausticPhotons{}, photon::FloorGrid{}, photon::kCudaMaxCausticK + 1);
  } catch (const InputError&) {
    refused = true;
  }
  check(refused, "more neighbours than the device estimate keeps is an InputError");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus::sim::raytrace

int main() { return meniscus::device_test::run_main(meniscus::sim::raytrace::run); }
