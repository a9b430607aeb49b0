#pragma once
// HistoPyramid marching cubes on the GPU with Vulkan compute (Dyken et al. §3-4), built into
// the frame graph every frame so the iso value can change interactively:
//   surface.hp_classify  level 0: the vertex count of every cell, 2x2 cells per uvec4 texel
//   surface.hp_reduce    levels 1..top: sums of 2x2 texels
//   surface.hp_indirect  the top element becomes the indirect draw's vertex count
// The passes themselves are recorded by pyramid_passes.h, shared with the cube-record pyramid.
// The same traversal (shaders/include/histopyramid.glsl) serves the vertex shader that draws
// the surface directly and the compute shader that extracts it into a buffer. Runs on any
// Vulkan 1.3 device, lavapipe included; sim/histopyramid is the CPU reference it is tested
// against.
#include <string>

#include <glm/glm.hpp>

#include "engine/core/buffer.h"
#include "engine/graph/frame_graph.h"
#include "passes/surface/pyramid_passes.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/volume.h"

namespace meniscus::passes {

// Push constants of every histopyramid shader (64 bytes; see histopyramid.glsl).
struct HistoPyramidParams {
  glm::uvec4 dims_tiles;
  glm::uvec4 side_levels;
  glm::vec4 iso_spacing;
  glm::vec4 origin;
};
static_assert(sizeof(HistoPyramidParams) == 64);

class GpuHistoPyramid {
 public:
  // Uploads the volume and the case tables once. `origin`/`spacing` override the volume's, so a
  // caller can place the surface in world units.
  // `name` prefixes the passes and resources (`surface.skin` -> `surface.skin.hp_classify`).
  GpuHistoPyramid(const Context& context, const sim::Volume& volume, glm::vec3 origin, glm::vec3 spacing,
                  std::string name = "surface");

  // The pyramid passes for `iso`; the outputs' source is the volume.
  PyramidOutputs add(graph::FrameGraph& graph, float iso);
  // Replaces the volume's values (same dimensions), waiting for the copy: the caller makes sure
  // no submitted frame still reads the volume (SurfacePass::update_volume idles the device).
  void update_volume(const sim::Volume& volume);
  // Its passes, for the extraction: pairs of vec4 per vertex, position + edge id bits, normal.
  const PyramidPasses& passes() const { return passes_; }

  HistoPyramidParams params(float iso, uint32_t level = 0) const;
  const sim::FlatLayout& layout() const { return layout_; }
  glm::vec2 range() const { return range_; }

 private:
  const Context& context_;
  std::string name_;
  sim::FlatLayout layout_;
  glm::uvec3 dims_;
  glm::vec3 origin_, spacing_;
  glm::vec2 range_;
  uint32_t levels_ = 0;
  uint64_t pyramid_texels_ = 0;
  Buffer volume_;
  PyramidPasses passes_;
};

}  // namespace meniscus::passes
