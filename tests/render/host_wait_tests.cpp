// Per-frame host waits: a frame may wait on the host only for its own slot's fence (the frame
// that used the slot before it). Every other wait — a queue or device idle, a second fence, a
// timeline wait on the host — idles the GPU or the CPU and is a defect on the hot path.
//
// The test program defines the Vulkan wait entry points itself, so the engine's calls (linked
// into this executable) land here, are counted, and go on to the loader's functions. Calls the
// driver or the validation layer make internally do not pass through these symbols.
#include <dlfcn.h>

#include <atomic>
#include <catch2/catch.hpp>

#include <vulkan/vulkan.h>

#include "engine/app/scene_renderer.h"
#include "engine/core/context.h"
#include "engine/core/image.h"
#include "tests/render/scene_variant.h"

namespace {

struct WaitCounts {
  std::atomic<uint64_t> fence_calls{0}, fences{0}, queue_idle{0}, device_idle{0}, semaphore_waits{0};
  void reset() { fence_calls = fences = queue_idle = device_idle = semaphore_waits = 0; }
};
WaitCounts counts;

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL vkWaitForFences(VkDevice device, uint32_t count, const VkFence* fences, VkBool32 all,
                                               uint64_t timeout) {
  static const auto real = next<PFN_vkWaitForFences>("vkWaitForFences");
  ++counts.fence_calls;
  counts.fences += count;
  return real(device, count, fences, all, timeout);
}

VKAPI_ATTR VkResult VKAPI_CALL vkQueueWaitIdle(VkQueue queue) {
  static const auto real = next<PFN_vkQueueWaitIdle>("vkQueueWaitIdle");
  ++counts.queue_idle;
  return real(queue);
}

VKAPI_ATTR VkResult VKAPI_CALL vkDeviceWaitIdle(VkDevice device) {
  static const auto real = next<PFN_vkDeviceWaitIdle>("vkDeviceWaitIdle");
  ++counts.device_idle;
  return real(device);
}

VKAPI_ATTR VkResult VKAPI_CALL vkWaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo* info, uint64_t timeout) {
  static const auto real = next<PFN_vkWaitSemaphores>("vkWaitSemaphores");
  ++counts.semaphore_waits;
  return real(device, info, timeout);
}

}  // extern "C"

namespace meniscus {
namespace {

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

struct Waits {
  uint64_t fence_calls, fences, other;
};

// Renders `warmup` frames, then counts the host waits of `frames` more.
Waits count_waits(const std::filesystem::path& scene_file, uint32_t warmup, uint32_t frames) {
  const Scene scene = load_scene(scene_file);
  Context context(ContextOptions{.validation = true});
  SceneRenderer renderer(context, scene, kFormat, sim::SimBackend::Cpu);
  const VkExtent2D extent{scene.render.width, scene.render.height};
  std::vector<Image> targets;
  for (uint32_t i = 0; i < renderer.frames_in_flight(); ++i)
    targets.emplace_back(context,
                         ImageSpec{.format = kFormat, .extent = extent, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT},
                         "output.offscreen");
  const auto render = [&] {
    Image& target = targets[renderer.next_slot()];
    renderer.render({target.handle(), target.view(), kFormat, extent, graph::Access::None, graph::Access::ColorAttachmentWrite},
                    {}, 1.0 / 60.0);
  };
  for (uint32_t i = 0; i < warmup; ++i) render();
  counts.reset();
  for (uint32_t i = 0; i < frames; ++i) render();
  Waits waits{counts.fence_calls, counts.fences, counts.queue_idle + counts.device_idle + counts.semaphore_waits};
  renderer.finish();
  CHECK(context.validation_error_count() == 0);
  return waits;
}

void check_one_fence_per_frame(const std::filesystem::path& scene) {
  // Past the first frames every slot is in flight, so each frame waits for its slot's fence once.
  constexpr uint32_t kWarmup = 4, kFrames = 6;
  const Waits waits = count_waits(scene, kWarmup, kFrames);
  INFO(scene.string() << ": " << waits.fence_calls << " fence waits (" << waits.fences << " fences), " << waits.other
                      << " other host waits over " << kFrames << " frames");
  CHECK(waits.fence_calls == kFrames);
  CHECK(waits.fences == kFrames);
  CHECK(waits.other == 0);
}

}  // namespace

// [slow]: what it checks is the frame's synchronisation, not its memory, and the sanitized run
// takes SPH and the fluid chain with foam in their golden tests. (The next one stays: nothing
// else there runs a level-set stage fed by particles through shared buffers.)
TEST_CASE("an SPH scene through the fluid chain waits only for its frame fences", "[render][host_waits][slow]") {
  check_one_fence_per_frame(testing::write_variant("tests/render/scenes/dam_break_small.toml", "host_waits_fluid",
                                                   "[pass.fluid]\nradius = 0.008\nfoam = true"));
}

TEST_CASE("two_surfaces (a level set rebuilt from the particles, its records in shared buffers) waits only for its frame fences",
          "[render][host_waits]") {
  check_one_fence_per_frame(testing::write_variant("tests/render/scenes/dam_break_small.toml", "host_waits_two_surfaces",
                                                   "[[stage]]\ntype = \"levelset\"\nname = \"surface\"\nparticles = \"sph\"\n"
                                                   "[pass.split]\nleft = \"sph\"\nright = \"surface\"\n"
                                                   "[pass.fluid]\nstage = \"sph\"\n"
                                                   "[pass.surface]\nvolume = \"stage:surface\"\n"
                                                   "[[pass.surface.layer]]\nname = \"water\"\niso = 0.0\n"));
}

TEST_CASE("a ballistic scene waits only for its frame fences", "[render][host_waits]") {
  check_one_fence_per_frame(std::filesystem::path(MENISCUS_SOURCE_DIR) / "tests/render/scenes/impostor_depth.toml");
}

TEST_CASE("the counting sees a device idle (the test can fail)", "[render][host_waits]") {
  Context context(ContextOptions{.validation = true});
  counts.reset();
  context.wait_idle();
  CHECK(counts.device_idle == 1);
}

}  // namespace meniscus
