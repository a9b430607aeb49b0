#pragma once
// particles.impostors: every particle as a lit sphere impostor (a camera-facing quad whose
// fragments reconstruct the sphere surface and replace depth), drawn over the background.
#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"

namespace meniscus::passes {

struct ParticlesSettings {
  float radius = 0.05f;
  glm::vec3 color{0.2f, 0.45f, 0.9f};
  float speed_tint = 0.5f;   // how far fast particles are tinted towards warm white, 0..1
  float speed_scale = 6.0f;  // speed (m/s) at which the tint is complete
};

// The lit sphere-impostor pipeline over the scene targets (particles.frag: depth replacement,
// the sky cubemap for ambient light), for a vertex shader that places the sprites.
GraphicsPipelineDesc impostor_pipeline_desc(const char* vertex_shader, uint32_t push_constant_bytes,
                                            const char* debug_name);

// Records pass `name`: `count` impostors of `particles` drawn with `pipeline` (made from
// impostor_pipeline_desc) into the scene targets, with `push_constants` as its constants.
SceneTargets add_impostor_pass(graph::FrameGraph& graph, const char* name, const Pipeline& pipeline, VkSampler sampler,
                               const SceneTargets& targets, graph::BufferHandle particles, uint32_t count,
                               graph::ImageHandle sky_cube, graph::BufferHandle frame,
                               std::span<const std::byte> push_constants);

class ParticlesPass {
 public:
  explicit ParticlesPass(const Context& context);
  ~ParticlesPass();
  ParticlesPass(const ParticlesPass&) = delete;
  ParticlesPass& operator=(const ParticlesPass&) = delete;

  SceneTargets add(graph::FrameGraph& graph, const SceneTargets& targets,
                   graph::BufferHandle particles, uint32_t count, graph::ImageHandle sky_cube,
                   graph::BufferHandle frame, const ParticlesSettings& settings);

 private:
  const Context& context_;
  Pipeline pipeline_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
