#pragma once
// Turns a scene's [[stage]] tables into simulation stages, and its [pass.*] tables into pass
// settings. The one place that knows every stage type by name.
#include <memory>
#include <optional>

#include "engine/app/scene.h"
#include "passes/fluid/fluid_settings.h"
#include "passes/particles/particles_pass.h"
#include "passes/surface/surface_pass.h"
#include "sim/common/particle_stage.h"

namespace meniscus {

class Context;

// Throws InputError naming the file and `stage[i].type` for an unknown type.
std::unique_ptr<sim::ParticleStage> make_particle_stage(const StageConfig& config, const Scene& scene,
                                                        sim::SimBackend backend, const Context& context);

passes::ParticlesSettings read_particles_settings(const Scene& scene);

// [pass.surface]: a volume (file, data:..., or field:N) and its iso-surface layers.
struct SurfaceConfig {
  std::string volume;  // resolved source for load_volume
  passes::SurfaceSettings settings;
};
std::optional<SurfaceConfig> read_surface_settings(const Scene& scene);

// [pass.fluid]: the screen-space fluid chain, drawn instead of the particle impostors when the
// table is present (even empty). Nothing when the scene has no such table.
std::optional<passes::FluidSettings> read_fluid_settings(const Scene& scene);

// `--fluid-debug` only means something for a scene with [pass.fluid]: an InputError otherwise.
void check_fluid_debug_flag(const Scene& scene, const std::optional<passes::FluidDebugView>& view);

// Reads every stage and pass table of `scene` without creating anything, so a bad setting is
// reported before a device is opened. Throws InputError like the readers above.
void check_scene_settings(const Scene& scene);

}  // namespace meniscus
