#pragma once
// Draws one scene, frame after frame: steps its simulation stages (StageSet), which publish
// through shared buffers, has the FrameComposer build the frame graph of the scene's passes,
// and submits it. This file owns the frame slots: command buffers, fences, uniforms, timings.
//
// Windowed runs and headless captures differ only in where the output image comes from (a
// swapchain image or an offscreen one) and in what is layered on top (the UI), so both use this.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/app/camera.h"
#include "engine/app/frame_composer.h"
#include "engine/app/scene.h"
#include "engine/app/stage_set.h"
#include "engine/core/buffer.h"
#include "engine/graph/executor.h"
#include "engine/graph/frame_graph.h"
#include "engine/profile/gpu_timer.h"
#include "engine/profile/timing_log.h"

namespace meniscus {

class SharedBuffer;

struct OutputImage {
  VkImage image;
  VkImageView view;
  VkFormat format;
  VkExtent2D extent;
  graph::Access initial;  // how the image arrives (None: content undefined)
  graph::Access final;    // how it must leave (Present, TransferSrc, ...)
};

struct FrameSync {
  VkSemaphore wait = VK_NULL_HANDLE;  // e.g. swapchain image available
  VkSemaphore signal = VK_NULL_HANDLE;  // e.g. rendering finished, waited by present
};

// Layers drawn after the scene (the UI), given the output image's current handle.
using OverlayFn = std::function<graph::ImageHandle(graph::FrameGraph&, graph::ImageHandle)>;

class SceneRenderer {
 public:
  SceneRenderer(const Context& context, const Scene& scene, VkFormat output_format,
                sim::SimBackend backend);
  ~SceneRenderer();
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;

  uint32_t frames_in_flight() const { return static_cast<uint32_t>(slots_.size()); }
  // The slot the next render() will use; its previous frame has completed once render returns.
  uint32_t next_slot() const { return static_cast<uint32_t>(frame_index_ % slots_.size()); }

  // Steps the simulation by `dt` seconds and renders into `output`. When `readback` is given,
  // the output image is copied into it inside the frame (width * height * 4 bytes).
  void render(const OutputImage& output, const FrameSync& sync, double dt,
              const OverlayFn& overlay = {}, const Buffer* readback = nullptr);

  // Waits for every frame in flight and records their timings.
  void finish();

  Camera& camera() { return camera_; }
  // Live settings the UI may change between frames.
  Scene& scene() { return scene_; }
  FrameComposer& composer() { return *composer_; }
  StageSet& stages() { return *stages_; }
  passes::ParticlesSettings& particle_settings() { return composer_->particle_settings(); }
  passes::SurfacePass* surface() { return composer_->surface(); }
  // The fluid chain's live settings when the scene has [pass.fluid], else null.
  passes::FluidSettings* fluid_settings() { return composer_->fluid_settings(); }
  // Re-bakes the sky after scene().environment changed.
  void environment_changed() { composer_->environment_changed(); }
  bool paused = false;
  bool step_once = false;  // while paused: advance the next frame by one 1/60 s step

  // Frames whose timings were collected are added to `log` (when set) from frame `first` on.
  void record_timings(profile::TimingLog* log, uint64_t first_frame) {
    timing_log_ = log;
    first_logged_frame_ = first_frame;
  }
  // Timings of the most recent completed frame, for the UI.
  const std::optional<profile::FrameTiming>& last_timing() const { return last_timing_; }
  // The next frame's compiled graph is written to `path` as Graphviz dot (`--dump-graph`).
  void dump_graph_next_frame(std::string path) { dump_path_ = std::move(path); }
  uint64_t frames_rendered() const { return frame_index_; }

 private:
  struct Slot;
  void collect(Slot& slot);
  void write_frame_uniforms(Slot& slot, VkExtent2D extent, double time);

  const Context& context_;
  Scene scene_;
  Camera camera_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::unique_ptr<StageSet> stages_;
  std::unique_ptr<FrameComposer> composer_;
  graph::GraphExecutor executor_;
  profile::GpuPassTimer gpu_timer_;
  uint64_t frame_index_ = 0;
  double sim_time_ = 0.0;
  profile::TimingLog* timing_log_ = nullptr;
  uint64_t first_logged_frame_ = 0;
  std::optional<profile::FrameTiming> last_timing_;
  std::string dump_path_;
};

}  // namespace meniscus
