#include "passes/fluid/fluid_spray_pass.h"

#include "engine/core/context.h"
#include "passes/common/rendering.h"
#include "passes/particles/particles_pass.h"

namespace meniscus::passes {
namespace {

// Mirrors shaders/fluid_spray.vert (its first 24 bytes are what particles.frag declares).
struct SprayConstants {
  glm::vec4 color;
  float radius;
  float speed_scale;
  float spray_density;
  float pad;
};

// Spray droplets are drawn smaller than the particles' fluid radius: they are what breaks off.
constexpr float kSprayRadiusScale = 0.5f;

}  // namespace

FluidSprayPass::FluidSprayPass(const Context& context)
    : context_(context),
      pipeline_(context, impostor_pipeline_desc("fluid_spray.vert", sizeof(SprayConstants), "fluid.spray")),
      sampler_(create_sampler(context, Filter::Linear, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)) {}

FluidSprayPass::~FluidSprayPass() { vkDestroySampler(context_.device(), sampler_, nullptr); }

SceneTargets FluidSprayPass::add(graph::FrameGraph& graph, const SceneTargets& targets, graph::BufferHandle particles,
                                 uint32_t count, graph::ImageHandle sky_cube, graph::BufferHandle frame,
                                 const FluidSettings& settings) {
  const SprayConstants constants{glm::vec4(settings.spray_color, 0.0f), settings.radius * kSprayRadiusScale,
                                 1.0f, settings.spray_density, 0.0f};
  return add_impostor_pass(graph, "fluid.spray", pipeline_, sampler_, targets, particles, count, sky_cube, frame,
                           std::as_bytes(std::span(&constants, 1)));
}

}  // namespace meniscus::passes
