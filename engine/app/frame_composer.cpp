#include "engine/app/frame_composer.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "engine/interop/shared_buffer.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/cube_records.h"

namespace meniscus {
namespace {

// A level set built from a stage's particles is drawn where the particles are: the surface
// pass's placement (largest extent, centre) is then the identity on the stage's grid.
passes::SurfaceSettings in_world_units(passes::SurfaceSettings settings, const sim::Volume& box) {
  const glm::vec3 extent = box.spacing * glm::vec3(box.dims - 1u);
  settings.size = std::max({extent.x, extent.y, extent.z});
  settings.position = box.origin + 0.5f * extent;
  settings.up_axis = "y";
  return settings;
}

}  // namespace

FrameComposer::FrameComposer(const Context& context, const Scene& scene, StageSet& stages, VkFormat output_format,
                             uint32_t frames_in_flight)
    : context_(context),
      stages_(stages),
      sky_(context, scene.environment.sky_cubemap_size),
      background_(context),
      particles_(context),
      tonemap_(context, output_format),
      split_pass_(context) {
  std::vector<StageFacts> facts;
  for (size_t i = 0; i < stages.size(); ++i) facts.push_back(stages.facts(i));
  particle_settings_ = read_particles_settings(scene);
  if (const auto surface = read_surface_settings(scene, facts)) {
    if (surface->stage) {
      surface_stage_ = surface->stage;
      sim::levelset::LevelSetStage& level_set = *stages.level_set(*surface->stage);
      // Layer iso values are on -φ (inside positive, as for a scan); the records need them in the band.
      const float gamma = level_set.gamma();
      for (const passes::SurfaceLayer& layer : surface->settings.layers)
        if (!(std::abs(layer.iso) < gamma))
          scene.pass("surface").fail("layer", "layer \"" + layer.name +
                                                  "\": a level set's iso value must lie inside its band (-" +
                                                  limits::number_text(gamma) + ", " + limits::number_text(gamma) + ")");
      const passes::SurfaceSettings settings =
          facts[*surface->stage].input ? in_world_units(surface->settings, level_set.box()) : surface->settings;
      surface_ = std::make_unique<passes::SurfacePass>(context, level_set.box(), settings,
                                                       passes::SurfaceSource::CubeRecords, frames_in_flight);
      surface_->set_range({-0.99f * gamma, 0.99f * gamma});
      record_buffers_.resize(frames_in_flight);
      for (auto& slot : record_buffers_) slot.resize(surface->settings.layers.size());
    } else {
      const sim::Volume volume = sim::load_volume(surface->volume);
      if (surface->preview) {
        const int allowed = sim::wavelet::max_levels(sim::wavelet::Shape::volume(volume.dims.x, volume.dims.y, volume.dims.z));
        if (surface->preview->levels > allowed)
          scene.pass("surface").table("preview").fail(
              "levels", volume.source + " allows at most " + std::to_string(allowed) +
                            " levels (every axis needs two samples at every level), got " +
                            std::to_string(surface->preview->levels));
        preview_ = std::make_unique<SurfacePreview>(volume, *surface->preview);  // a NaN sample: its own error
      }
      surface_ = std::make_unique<passes::SurfacePass>(context, preview_ ? preview_->volume() : volume, surface->settings);
    }
  }
  fluid_config_ = read_fluid_settings(scene, facts);
  if (fluid_config_) fluid_ = std::make_unique<passes::FluidRenderer>(context);
  split_ = read_split_settings(scene, facts);
  std::vector<passes::SolidShape> solids;
  for (const StageFacts& f : facts) solids.insert(solids.end(), f.solids.begin(), f.solids.end());
  if (!solids.empty()) solids_ = std::make_unique<passes::SolidsPass>(context, std::move(solids));
  for (size_t i = 0; i < stages.size(); ++i) {
    if (!stages.traced_image(i)) continue;
    if (traced_stage_)
      scene.stages[i].params.fail("type", "a scene draws one traced image; stage \"" + stages.facts(*traced_stage_).name +
                                              "\" already makes one");
    traced_stage_ = i;
    traced_ = std::make_unique<passes::TracedImagePass>(context);
  }
  if (auto mip = read_mip_settings(scene)) {
    if (traced_stage_)
      scene.stages[*traced_stage_].params.fail(
          "type", "a scene draws either its [pass.mip] or a traced image, and this one has [pass.mip]");
    mip_ = std::make_unique<Mip>(context, std::move(*mip), output_format, stages.backend());
  }
}

FrameComposer::Mip::Mip(const Context& context, MipConfig mip_config, VkFormat output_format, sim::SimBackend backend)
    : config(std::move(mip_config)),
      volume(sim::mip::to_grey_levels(sim::load_volume(config.volume))),
      lowest(*std::min_element(volume.values.begin(), volume.values.end())),
      highest(*std::max_element(volume.values.begin(), volume.values.end())),
      renderer(context, volume, config.settings.levels, backend),
      display(context, output_format) {
  // No window in the scene: the volume's full range, so the panel's sliders start from it.
  passes::MipSettings& s = config.settings;
  if (!s.window_width) s.window_width = float(std::max(1, highest - lowest));
  if (!s.window_level) s.window_level = volume.offset + 0.5f * float(lowest + highest);
}

graph::ImageHandle FrameComposer::add_mip(graph::FrameGraph& graph, const FrameTarget& target) {
  const passes::MipSettings& s = mip_->config.settings;
  const passes::MipImageBuffer image = mip_->renderer.add(graph, s);
  // The window is in the volume's values; the image holds grey levels (values - offset).
  const float width = *s.window_width, level = *s.window_level;
  const passes::MipWindow window{level - 0.5f * width - mip_->volume.offset, width};
  const glm::vec3 spacing = mip_->volume.spacing;
  const glm::vec2 pixel_spacing = s.axis == sim::mip::ViewAxis::X   ? glm::vec2(spacing.y, spacing.z)
                                  : s.axis == sim::mip::ViewAxis::Y ? glm::vec2(spacing.x, spacing.z)
                                                                    : glm::vec2(spacing.x, spacing.y);
  return mip_->display.add(graph, image, target.output, window, pixel_spacing, s.flip_vertical);
}

void FrameComposer::grow(RecordBuffer& records, uint32_t needed, const sim::levelset::LevelSetStage& level_set) {
  // Room to spare: an evolving surface changes its size a little every frame.
  records.capacity = std::max<uint32_t>(needed + needed / 4, 4096);
  const SharedMemory kind = level_set.backend() == sim::SimBackend::Cuda ? SharedMemory::Cuda : SharedMemory::Host;
  records.buffer = std::make_unique<SharedBuffer>(context_, sim::cube_record_buffer_bytes(records.capacity), kind,
                                                  "surface.records");
}

void FrameComposer::prepare(uint32_t slot) {
  if (preview_ && preview_->advance()) surface_->update_volume(preview_->volume());
  if (!surface_stage_ || !surface_) return;
  sim::levelset::LevelSetStage& level_set = *stages_.level_set(*surface_stage_);
  for (size_t i = 0; i < surface_->layers().size(); ++i) {
    RecordBuffer& records = record_buffers_[slot][i];
    const float phi_iso = -surface_->layers()[i].iso;  // layers are on -φ (inside positive, as a scan's)
    // The device's records: what the slot's last frame needed is known once its fence passed.
    if (const auto header = surface_->last_record_header(slot, i)) {
      sim::levelset::check_cube_record_header(*header, level_set.box().source.c_str());
      if (header->needed > records.capacity) grow(records, header->needed, level_set);
    }
    if (!records.buffer) grow(records, uint32_t(std::min<size_t>(level_set.tiles() * 16, UINT32_MAX / 2)), level_set);
    // The host's records: known at once, so written again when they did not fit.
    if (const auto needed = level_set.write_records(*records.buffer, records.capacity, phi_iso); needed && *needed > records.capacity) {
      grow(records, *needed, level_set);
      level_set.write_records(*records.buffer, records.capacity, phi_iso);
    }
    const SharedBuffer& shared = *records.buffer;
    surface_->use_record_buffer(slot, i, {shared.buffer(), shared.size(), records.capacity, shared.kind() == SharedMemory::Cuda},
                                level_set.voxel0(), level_set.voxel_size());
  }
}

void FrameComposer::add_waits(std::vector<VkSemaphoreSubmitInfo>& waits) const {
  if (!surface_stage_) return;
  if (const auto w = stages_.level_set(*surface_stage_)->gpu_wait()) {
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = w->semaphore;
    wait.value = w->value;
    // The records are read by the pyramid's compute passes, a copy and the draw's vertex shader.
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    waits.push_back(wait);
  }
}

bool FrameComposer::drawn_on(size_t stage, Side side) const {
  if (side == Side::Whole || !split_) return true;
  if (stage == split_->left) return side == Side::Left;
  if (stage == split_->right) return side == Side::Right;
  return true;
}

passes::SceneTargets FrameComposer::add_view(graph::FrameGraph& graph, const FrameTarget& target, Side side,
                                             graph::ImageHandle sky, graph::BufferHandle frame,
                                             const passes::SunShadow* shadow) {
  passes::SceneTargets targets = background_.add(graph, target.extent, sky, frame, shadow);
  if (solids_) targets = solids_->add_opaque(graph, targets, sky, frame, *shadow);
  if (surface_ && (!surface_stage_ || drawn_on(*surface_stage_, side)))
    targets = surface_->add(graph, targets, sky, frame, target.slot);

  for (size_t i = 0; i < stages_.size(); ++i) {
    const sim::ParticleStage* stage = stages_.particles(i);
    if (!stage || !drawn_on(i, side)) continue;
    // A level set consuming these particles draws them; the particles themselves are drawn
    // only where the scene does not split them off to one side.
    const graph::NameScope scope(graph, stages_.facts(i).name);
    const SharedBuffer& shared = stages_.published(i, target.slot);
    // CUDA writes are ordered by the timeline semaphore the submission waits on, so the buffer
    // enters the graph with no pending host access.
    const graph::Access produced =
        stage->backend() == sim::SimBackend::Cuda ? graph::Access::None : graph::Access::HostWrite;
    const graph::BufferHandle particles =
        graph.import_buffer("particles", {shared.buffer(), shared.size(), produced, produced});
    const auto count = static_cast<uint32_t>(stage->count());
    if (fluid_ && (!fluid_config_->stage || *fluid_config_->stage == i))
      targets = fluid_->add(graph, targets, {particles, count, frame, sky, target.proj, target.extent}, fluid_config_->settings);
    else
      targets = particles_.add(graph, targets, particles, count, sky, frame, particle_settings_);
  }
  if (solids_) targets = solids_->add_glass(graph, targets, sky, frame);
  return targets;
}

graph::ImageHandle FrameComposer::add(graph::FrameGraph& graph, const FrameTarget& target, float exposure) {
  if (mip_) return add_mip(graph, target);
  if (traced_stage_) return add_traced(graph, target, exposure);
  // The host writes the uniforms and CPU-backend particles before submitting; the fence wait
  // at the top of the next use of this slot orders the GPU's reads before the next writes.
  const Buffer& uniforms = *target.uniforms;
  const graph::BufferHandle frame = graph.import_buffer(
      "frame.uniforms", {uniforms.handle(), uniforms.size(), graph::Access::HostWrite, graph::Access::HostWrite});
  const graph::ImageHandle sky = sky_.add(graph, frame);
  std::optional<passes::SunShadow> shadow;
  if (solids_) shadow = solids_->add_shadow(graph, frame);
  const passes::SunShadow* sun_shadow = shadow ? &*shadow : nullptr;
  graph::ImageHandle color;
  if (split_) {
    graph::ImageHandle left, right;
    {
      const graph::NameScope scope(graph, "left");
      left = add_view(graph, target, Side::Left, sky, frame, sun_shadow).color;
    }
    {
      const graph::NameScope scope(graph, "right");
      right = add_view(graph, target, Side::Right, sky, frame, sun_shadow).color;
    }
    color = split_pass_.add(graph, left, right, split_->divider);
  } else {
    color = add_view(graph, target, Side::Whole, sky, frame, sun_shadow).color;
  }
  return tonemap_.add(graph, color, target.output, exposure);
}

graph::ImageHandle FrameComposer::add_traced(graph::FrameGraph& graph, const FrameTarget& target, float exposure) {
  const size_t i = *traced_stage_;
  const sim::TracedImageStage& stage = *stages_.traced_image(i);
  const SharedBuffer& shared = stages_.published(i, target.slot);
  const graph::NameScope scope(graph, stages_.facts(i).name);
  // The CPU backend wrote the image from the host before the submission; CUDA's write is
  // ordered by the semaphore wait on the submission itself (StageSet::add_waits).
  const graph::Access written =
      stage.backend() == sim::SimBackend::Cuda ? graph::Access::None : graph::Access::HostWrite;
  const graph::BufferHandle image = graph.import_buffer("image", {shared.buffer(), shared.size(), written, written});
  const graph::ImageHandle color = traced_->add(graph, {image, stage.width(), stage.height()}, target.extent);
  return tonemap_.add(graph, color, target.output, exposure);
}

}  // namespace meniscus
