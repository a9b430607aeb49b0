#include "engine/app/scene_renderer.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"
#include "engine/profile/cpu_timer.h"
#include "passes/common/frame_uniforms.h"
#include "passes/readback/readback_pass.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;

using profile::ms_since;

Camera make_camera(const CameraSettings& c) {
  return Camera(c.mode == "fly" ? Camera::Mode::Fly : Camera::Mode::Orbit, c.target, c.distance,
                c.yaw_degrees, c.pitch_degrees, c.fov_y_degrees, c.near, c.far, c.move_speed);
}

}  // namespace

struct SceneRenderer::Slot {
  const Context& context;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  Buffer uniforms;
  bool in_flight = false;
  uint64_t frame = 0;
  Clock::time_point started;
  double cpu_ms = 0.0;
  std::vector<profile::StageSample> stage_samples;

  explicit Slot(const Context& c) : context(c) {
    VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool_info.queueFamilyIndex = c.queue_family();
    VK_CHECK(vkCreateCommandPool(c.device(), &pool_info, nullptr, &pool));
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VK_CHECK(vkAllocateCommandBuffers(c.device(), &alloc, &cmd));
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VK_CHECK(vkCreateFence(c.device(), &fence_info, nullptr, &fence));
    uniforms = Buffer(c, sizeof(passes::FrameUniforms), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                      MemoryUse::Upload, "frame.uniforms");
  }
  ~Slot() {
    vkDestroyFence(context.device(), fence, nullptr);
    vkDestroyCommandPool(context.device(), pool, nullptr);
  }
};

SceneRenderer::SceneRenderer(const Context& context, const Scene& scene, VkFormat output_format,
                             sim::SimBackend backend)
    : context_(context),
      scene_(scene),
      camera_(make_camera(scene.camera)),
      executor_(context, scene.render.frames_in_flight),
      gpu_timer_(context, scene.render.frames_in_flight) {
  for (uint32_t i = 0; i < scene.render.frames_in_flight; ++i) slots_.push_back(std::make_unique<Slot>(context));
  stages_ = std::make_unique<StageSet>(context, scene, backend, scene.render.frames_in_flight);
  composer_ = std::make_unique<FrameComposer>(context, scene, *stages_, output_format, scene.render.frames_in_flight);
}

SceneRenderer::~SceneRenderer() { context_.wait_idle(); }

void SceneRenderer::write_frame_uniforms(Slot& slot, VkExtent2D extent, double time) {
  const auto& env = scene_.environment;
  const CameraPose pose = camera_.pose(float(extent.width) / float(extent.height));
  passes::FrameUniforms u{};
  u.view = pose.view;
  u.proj = pose.proj;
  u.view_proj = pose.proj * pose.view;
  u.inv_view_proj = glm::inverse(u.view_proj);
  u.camera_position = glm::vec4(pose.position, float(time));
  u.sun_direction = glm::vec4(env.sun_direction, env.sun_intensity);
  u.sun_color = glm::vec4(env.sun_color, scene_.render.exposure);
  u.sky_zenith = glm::vec4(env.sky_zenith, 0.0f);
  u.sky_horizon = glm::vec4(env.sky_horizon, 0.0f);
  u.ground_color_a = glm::vec4(env.ground_color_a, env.ground_height);
  u.ground_color_b = glm::vec4(env.ground_color_b, env.ground_tile_size);
  u.viewport = glm::vec4(extent.width, extent.height, 1.0f / extent.width, 1.0f / extent.height);
  u.flags = glm::vec4(env.ground ? 1.0f : 0.0f, camera_.near_plane(), camera_.far_plane(), 0.0f);
  std::memcpy(slot.uniforms.mapped(), &u, sizeof(u));
}

void SceneRenderer::collect(Slot& slot) {
  if (!slot.in_flight) return;
  VK_CHECK(vkWaitForFences(context_.device(), 1, &slot.fence, VK_TRUE, UINT64_MAX));
  slot.in_flight = false;
  profile::FrameTiming timing;
  timing.frame = slot.frame;
  timing.cpu_ms = slot.cpu_ms;
  timing.start_ms = ms_since(Clock::time_point{}, slot.started);
  const uint32_t index = static_cast<uint32_t>(slot.frame % slots_.size());
  timing.passes = gpu_timer_.collect(index);
  timing.gpu_ms = 0.0;
  if (!timing.passes.empty()) timing.gpu_ms = timing.passes.back().end_ms - timing.passes.front().begin_ms;
  timing.stages = slot.stage_samples;
  if (timing_log_ && slot.frame >= first_logged_frame_) timing_log_->add(timing);
  last_timing_ = std::move(timing);
}

void SceneRenderer::render(const OutputImage& output, const FrameSync& sync, double dt,
                           const OverlayFn& overlay, const Buffer* readback) {
  const uint32_t index = next_slot();
  Slot& slot = *slots_[index];
  collect(slot);

  slot.started = Clock::now();
  slot.frame = frame_index_;
  slot.stage_samples.clear();
  if (paused) dt = step_once ? 1.0 / 60.0 : 0.0;
  step_once = false;
  sim_time_ += dt;
  slot.stage_samples = stages_->advance(index, dt);
  composer_->prepare(index);
  write_frame_uniforms(slot, output.extent, sim_time_);

  graph::FrameGraph graph;
  graph::ImageHandle out = graph.import_image(
      "output.image", {output.image, output.view, {.format = output.format, .extent = output.extent},
                       output.initial, output.final});
  const glm::mat4 proj = camera_.pose(float(output.extent.width) / float(output.extent.height)).proj;
  out = composer_->add(graph, {out, &slot.uniforms, index, output.extent, proj}, scene_.render.exposure);
  if (overlay) out = overlay(graph, out);
  if (readback) {
    graph::BufferHandle host = graph.import_buffer(
        "output.readback", {readback->handle(), readback->size(), graph::Access::None, graph::Access::HostRead});
    passes::add_readback(graph, out, host);
  }

  VK_CHECK(vkResetCommandPool(context_.device(), slot.pool, 0));
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VK_CHECK(vkBeginCommandBuffer(slot.cmd, &begin));
  gpu_timer_.begin_frame(slot.cmd, index);
  executor_.execute(graph, slot.cmd, index, &gpu_timer_);
  VK_CHECK(vkEndCommandBuffer(slot.cmd));
  if (!dump_path_.empty()) {
    std::ofstream(dump_path_) << graph.to_dot();
    dump_path_.clear();
  }

  std::vector<VkSemaphoreSubmitInfo> waits;
  if (sync.wait) {
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = sync.wait;
    // The image's first layout transition takes its first user's stages as its source scope,
    // so waiting there would do; waiting for everything is simpler and costs nothing measurable.
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    waits.push_back(wait);
  }
  stages_->add_waits(index, waits);
  composer_->add_waits(waits);
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  signal.semaphore = sync.signal;
  signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkCommandBufferSubmitInfo cmd_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cmd_info.commandBuffer = slot.cmd;
  VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit.waitSemaphoreInfoCount = static_cast<uint32_t>(waits.size());
  submit.pWaitSemaphoreInfos = waits.data();
  submit.commandBufferInfoCount = 1;
  submit.pCommandBufferInfos = &cmd_info;
  submit.signalSemaphoreInfoCount = sync.signal ? 1 : 0;
  submit.pSignalSemaphoreInfos = &signal;
  VK_CHECK(vkResetFences(context_.device(), 1, &slot.fence));
  VK_CHECK(vkQueueSubmit2(context_.queue(), 1, &submit, slot.fence));
  slot.in_flight = true;
  slot.cpu_ms = ms_since(slot.started);
  ++frame_index_;
}

void SceneRenderer::finish() {
  // Collect in submission order so the log stays sorted by frame.
  for (uint64_t i = 0; i < slots_.size(); ++i) collect(*slots_[(frame_index_ + i) % slots_.size()]);
}

}  // namespace meniscus
