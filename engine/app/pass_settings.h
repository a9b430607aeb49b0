#pragma once
// Reads a scene's [pass.*] tables into pass settings, checking every stage they name against
// the scene's stages (stage_registry.h). Nothing is created here, so a bad setting is reported
// before a device is opened.
#include <optional>
#include <span>
#include <string>

#include "engine/app/scene.h"
#include "engine/app/surface_preview.h"
#include "engine/app/stage_registry.h"
#include "passes/fluid/fluid_settings.h"
#include "passes/mip/mip_settings.h"
#include "passes/particles/particles_pass.h"
#include "passes/surface/surface_pass.h"

namespace meniscus {

passes::ParticlesSettings read_particles_settings(const Scene& scene);

// [pass.surface]: a volume (file, data:..., or field:N) or a level-set stage ("stage:<name>"),
// and its iso-surface layers.
struct SurfaceConfig {
  std::string volume;          // resolved source for load_volume, when no stage
  std::optional<size_t> stage;  // the level-set stage drawn
  passes::SurfaceSettings settings;
  std::optional<SurfacePreviewSettings> preview;  // [pass.surface.preview], a volume's only
};
std::optional<SurfaceConfig> read_surface_settings(const Scene& scene, std::span<const StageFacts> stages);

// [pass.fluid]: the screen-space fluid chain, drawn instead of the particle impostors when the
// table is present (even empty): for the particle stage `stage` names, or for all of them.
struct FluidConfig {
  passes::FluidSettings settings;
  std::optional<size_t> stage;
};
std::optional<FluidConfig> read_fluid_settings(const Scene& scene, std::span<const StageFacts> stages);

// [pass.split]: one frame in two halves with a draggable divider; the stage `left` names is drawn
// only left of it, `right` only right of it, everything else on both sides.
struct SplitConfig {
  size_t left = 0, right = 0;
  float divider = 0.5f;  // in [0, 1] of the width
};
std::optional<SplitConfig> read_split_settings(const Scene& scene, std::span<const StageFacts> stages);

// [pass.mip]: a maximum-intensity projection of a volume (file or data:...) instead of the 3-D
// scene; the pyramid methods need the axis view (passes/mip/mip_settings.h).
struct MipConfig {
  std::string volume;  // resolved source for load_volume
  passes::MipSettings settings;
};
std::optional<MipConfig> read_mip_settings(const Scene& scene);

// `--fluid-debug` only means something for a scene with [pass.fluid]: an InputError otherwise.
void check_fluid_debug_flag(const Scene& scene, const std::optional<passes::FluidDebugView>& view);

// Reads every stage and pass table of `scene` without creating anything; returns the stages'
// facts. Throws InputError naming the file, line and field.
std::vector<StageFacts> check_scene_settings(const Scene& scene);

}  // namespace meniscus
