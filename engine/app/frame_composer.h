#pragma once
// Builds a frame's graph from the scene's passes and what its stages published: the one file
// a new pass edits. Once a frame: the sky and the solids' sun shadow map. Within a view:
// background (sky and shadowed ground), opaque solids and the tank's far glass, the surface of
// a volume or level set, each particle stage through the fluid chain or as impostors, the
// tank's near glass; then, for a split scene, the two views side by side; then the tonemap
// (the caller adds the overlay and a read-back).
//
// Every pass drawing a stage's output runs inside a name scope of that stage's name
// (graph::NameScope), so a scene may hold several particle stages and a pass once per stage:
// "water.fluid.depth", "fountain.particles.impostors". A split scene's two views are scoped
// "left" and "right".
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "engine/app/camera.h"
#include "engine/app/pass_settings.h"
#include "engine/app/stage_set.h"
#include "engine/core/buffer.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/fluid/fluid_renderer.h"
#include "passes/mip/mip_display_pass.h"
#include "passes/mip/mip_renderer.h"
#include "passes/particles/particles_pass.h"
#include "passes/raytrace/traced_image_pass.h"
#include "passes/sky/sky_pass.h"
#include "passes/solids/solids_pass.h"
#include "passes/split/split_pass.h"
#include "passes/surface/surface_pass.h"
#include "passes/tonemap/tonemap_pass.h"

namespace meniscus {

// What one frame draws into.
struct FrameTarget {
  graph::ImageHandle output;     // imported by the caller
  const Buffer* uniforms;        // this slot's frame uniforms, written by the host
  uint32_t slot;
  VkExtent2D extent;
  glm::mat4 proj;                // the projection the uniforms hold
};

class FrameComposer {
 public:
  FrameComposer(const Context& context, const Scene& scene, StageSet& stages, VkFormat output_format,
                uint32_t frames_in_flight);

  // Before recording `slot`'s frame (its previous frame has completed): has the drawn level set
  // publish its cube records into the slot's shared buffers, growing them when they overflowed.
  void prepare(uint32_t slot);
  // The timeline waits the submission of `slot`'s frame needs for what prepare() published.
  void add_waits(std::vector<VkSemaphoreSubmitInfo>& waits) const;
  // Adds the scene's passes; returns the output image's last version.
  graph::ImageHandle add(graph::FrameGraph& graph, const FrameTarget& target, float exposure);

  // The level-set stage the surface pass draws (its first visible layer's mesh is what
  // `--export-mesh` writes), or null.
  sim::levelset::LevelSetStage* drawn_level_set() const {
    return surface_stage_ ? stages_.level_set(*surface_stage_) : nullptr;
  }

  // Live settings the UI may change between frames.
  passes::ParticlesSettings& particle_settings() { return particle_settings_; }
  passes::FluidSettings* fluid_settings() { return fluid_ ? &fluid_config_->settings : nullptr; }
  passes::SurfacePass* surface() { return surface_.get(); }
  SurfacePreview* surface_preview() { return preview_.get(); }
  float* split_divider() { return split_ ? &split_->divider : nullptr; }
  passes::MipSettings* mip_settings() { return mip_ ? &mip_->config.settings : nullptr; }
  const sim::mip::StreamIndex* mip_stream() const { return mip_ ? &mip_->renderer.stream() : nullptr; }
  const passes::MipProgress* mip_progress() const { return mip_ ? &mip_->renderer.progress() : nullptr; }
  void environment_changed() { sky_.invalidate(); }

 private:
  enum class Side { Whole, Left, Right };
  // A surface layer's cube records for one frame slot, as the level set publishes them.
  struct RecordBuffer {
    std::unique_ptr<SharedBuffer> buffer;
    uint32_t capacity = 0;
  };
  void grow(RecordBuffer& records, uint32_t needed, const sim::levelset::LevelSetStage& level_set);
  bool drawn_on(size_t stage, Side side) const;
  passes::SceneTargets add_view(graph::FrameGraph& graph, const FrameTarget& target, Side side, graph::ImageHandle sky,
                                graph::BufferHandle frame, const passes::SunShadow* shadow);

  const Context& context_;
  StageSet& stages_;
  passes::ParticlesSettings particle_settings_;
  std::optional<FluidConfig> fluid_config_;
  std::optional<SplitConfig> split_;
  std::optional<size_t> surface_stage_;  // the level-set stage the surface pass draws
  std::vector<std::vector<RecordBuffer>> record_buffers_;  // [slot][layer]
  passes::SkyPass sky_;
  passes::BackgroundPass background_;
  passes::ParticlesPass particles_;
  passes::TonemapPass tonemap_;
  passes::SplitPass split_pass_;
  std::unique_ptr<passes::SurfacePass> surface_;     // when the scene has [pass.surface]
  std::unique_ptr<SurfacePreview> preview_;          // when it has [pass.surface.preview]
  std::unique_ptr<passes::FluidRenderer> fluid_;     // when the scene has [pass.fluid]
  std::unique_ptr<passes::SolidsPass> solids_;       // when a stage has solids (an SPH tank)
  // A [pass.mip] scene draws its volume's MIP and nothing else.
  struct Mip {
    Mip(const Context& context, MipConfig mip_config, VkFormat output_format, sim::SimBackend backend);
    MipConfig config;
    sim::mip::GreyVolume volume;
    uint16_t lowest = 0, highest = 0;  // the volume's grey range: the default window
    passes::MipRenderer renderer;
    passes::MipDisplayPass display;
  };
  std::unique_ptr<Mip> mip_;
  // A scene with a traced-image stage draws that stage's frame and nothing else.
  std::optional<size_t> traced_stage_;
  std::unique_ptr<passes::TracedImagePass> traced_;
  graph::ImageHandle add_traced(graph::FrameGraph& graph, const FrameTarget& target, float exposure);
  graph::ImageHandle add_mip(graph::FrameGraph& graph, const FrameTarget& target);
};

}  // namespace meniscus
