#include "engine/app/scene_renderer.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>

#include "engine/app/stage_factory.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"
#include "passes/common/frame_uniforms.h"
#include "passes/readback/readback_pass.h"
#include "sim/histopyramid/volume_io.h"

namespace meniscus {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start, Clock::time_point end = Clock::now()) {
  return std::chrono::duration<double, std::milli>(end - start).count();
}

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
  // One shared buffer per particle stage and frame slot: the simulation writes slot N+1's while
  // the GPU still reads slot N's.
  std::vector<std::unique_ptr<SharedBuffer>> particles;
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
      gpu_timer_(context, scene.render.frames_in_flight),
      sky_(context, scene.environment.sky_cubemap_size),
      background_(context),
      particles_(context),
      tonemap_(context, output_format) {
  particle_settings_ = read_particles_settings(scene);
  for (const StageConfig& config : scene.stages)
    if (config.type == "levelset") {
      if (levelset_) config.params.fail("type", "a scene holds one \"levelset\" stage");
      levelset_ = std::make_unique<LevelSetStage>(read_levelset_settings(config.params, scene), backend);
    }
  if (const auto surface = read_surface_settings(scene)) {
    if (surface->volume == "stage:levelset") {
      if (!levelset_) scene.pass("surface").fail("volume", "\"stage:levelset\" needs a [[stage]] with type = \"levelset\"");
      // Layer iso values are on -φ (inside positive, as for a scan); the records need them in the band.
      const float gamma = levelset_->gamma();
      for (const passes::SurfaceLayer& layer : surface->settings.layers)
        if (!(std::abs(layer.iso) < gamma))
          scene.pass("surface").fail("layer", "layer \"" + layer.name + "\": a level set's iso value must lie inside its band (-" +
                                                  std::to_string(gamma) + ", " + std::to_string(gamma) + ")");
      surface_ = std::make_unique<passes::SurfacePass>(context, levelset_->box(), surface->settings,
                                                       passes::SurfaceSource::CubeRecords, scene.render.frames_in_flight);
      surface_->set_range({-0.99f * gamma, 0.99f * gamma});
    } else {
      surface_ = std::make_unique<passes::SurfacePass>(context, sim::load_volume(surface->volume), surface->settings);
    }
  }
  fluid_settings_ = read_fluid_settings(scene);
  if (fluid_settings_) fluid_ = std::make_unique<passes::FluidRenderer>(context);
  for (const StageConfig& config : scene.stages)
    if (config.type != "levelset") particle_stages_.push_back(make_particle_stage(config, scene, backend, context));
  for (uint32_t i = 0; i < scene.render.frames_in_flight; ++i) {
    auto slot = std::make_unique<Slot>(context);
    for (const auto& stage : particle_stages_)
      slot->particles.push_back(std::make_unique<SharedBuffer>(
          context, stage->capacity() * sizeof(sim::Particle), stage->backend() == sim::SimBackend::Cuda ? SharedMemory::Cuda : SharedMemory::Host,
          "particles.positions"));
    slots_.push_back(std::move(slot));
  }
}

SceneRenderer::~SceneRenderer() { context_.wait_idle(); }

// A stage reset with smaller particles needs bigger buffers: rare, so simply idle the device.
void SceneRenderer::grow_particle_buffers(size_t stage_index) {
  context_.wait_idle();
  const sim::ParticleStage& stage = *particle_stages_[stage_index];
  for (auto& slot : slots_)
    slot->particles[stage_index] = std::make_unique<SharedBuffer>(
        context_, stage.capacity() * sizeof(sim::Particle),
        stage.backend() == sim::SimBackend::Cuda ? SharedMemory::Cuda : SharedMemory::Host, "particles.positions");
}

std::vector<sim::ParticleStage*> SceneRenderer::stages() {
  std::vector<sim::ParticleStage*> out;
  for (auto& s : particle_stages_) out.push_back(s.get());
  return out;
}

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

void SceneRenderer::build_graph(graph::FrameGraph& graph, Slot& slot, const OutputImage& output,
                                const OverlayFn& overlay, const Buffer* readback) {
  // The host writes the uniforms and CPU-backend particles before submitting; the fence wait
  // at the top of the next use of this slot orders the GPU's reads before the next writes.
  graph::BufferHandle frame = graph.import_buffer(
      "frame.uniforms", {slot.uniforms.handle(), slot.uniforms.size(), graph::Access::HostWrite,
                         graph::Access::HostWrite});
  graph::ImageHandle sky = sky_.add(graph, frame);
  passes::SceneTargets targets = background_.add(graph, output.extent, sky, frame);
  if (surface_) targets = surface_->add(graph, targets, sky, frame, next_slot());

  for (size_t i = 0; i < particle_stages_.size(); ++i) {
    SharedBuffer& shared = *slot.particles[i];
    // CUDA writes are ordered by the timeline semaphore the submission waits on, so the
    // buffer enters the graph with no pending host access.
    const graph::Access produced = particle_stages_[i]->backend() == sim::SimBackend::Cuda
                                       ? graph::Access::None
                                       : graph::Access::HostWrite;
    graph::BufferHandle particles = graph.import_buffer(
        "particles.stage" + std::to_string(i), {shared.buffer(), shared.size(), produced, produced});
    const auto count = static_cast<uint32_t>(particle_stages_[i]->count());
    if (fluid_) {
      const glm::mat4 proj = camera_.pose(float(output.extent.width) / float(output.extent.height)).proj;
      targets = fluid_->add(graph, targets, {particles, count, frame, sky, proj, output.extent}, *fluid_settings_);
    } else {
      targets = particles_.add(graph, targets, particles, count, sky, frame, particle_settings_);
    }
  }

  graph::ImageHandle out = graph.import_image(
      "output.image", {output.image, output.view, {.format = output.format, .extent = output.extent},
                       output.initial, output.final});
  out = tonemap_.add(graph, targets.color, out, scene_.render.exposure);
  if (overlay) out = overlay(graph, out);
  if (readback) {
    graph::BufferHandle host = graph.import_buffer(
        "output.readback", {readback->handle(), readback->size(), graph::Access::None, graph::Access::HostRead});
    passes::add_readback(graph, out, host);
  }
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
  for (size_t i = 0; i < particle_stages_.size(); ++i) {
    sim::ParticleStage& stage = *particle_stages_[i];
    const auto step_start = Clock::now();
    if (dt > 0.0) stage.step(dt);
    if (slot.particles[i]->size() < stage.capacity() * sizeof(sim::Particle)) grow_particle_buffers(i);
    stage.write(*slot.particles[i]);
    // CUDA stages report their kernels' time from CUDA events; CPU stages their wall time.
    const double ms = stage.device_ms().value_or(ms_since(step_start));
    slot.stage_samples.push_back({std::string(stage.name()), sim::backend_name(stage.backend()), ms});
  }
  if (levelset_) {
    const auto step_start = Clock::now();
    if (dt > 0.0) levelset_->step();
    // Every frame, into this slot's buffer: the records (cached by the stage while the level set
    // and the iso value stay put), never a volume.
    if (surface_ && surface_->source() == passes::SurfaceSource::CubeRecords)
      for (size_t i = 0; i < surface_->layers().size(); ++i) {
        const sim::CubeRecordSet& records = levelset_->records(-surface_->layers()[i].iso);
        surface_->update_records(index, i, records, levelset_->record_origin(), levelset_->voxel_size());
      }
    slot.stage_samples.push_back({"levelset", "cpu", ms_since(step_start)});
  }
  write_frame_uniforms(slot, output.extent, sim_time_);

  graph::FrameGraph graph;
  build_graph(graph, slot, output, overlay, readback);

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
  for (size_t i = 0; i < particle_stages_.size(); ++i) {
    if (auto w = particle_stages_[i]->gpu_wait(*slot.particles[i])) {
      VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
      wait.semaphore = w->semaphore;
      wait.value = w->value;
      wait.stageMask = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT;
      waits.push_back(wait);
    }
  }
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
