#pragma once
// The static solids of a scene (solid_shape.h) in three passes:
//   solids.shadow  the opaque solids' depth from the sun, a map the ground and the solids read;
//   solids.opaque  stone and metal into the scene targets, then the tank's far walls and floor
//                  blended over them (no depth write), all before the fluid: the fluid's
//                  refraction samples the scene colour drawn before it, so it sees the far glass;
//   solids.glass   the tank's near walls blended over everything, after the fluid, depth-tested
//                  against the scene (so solids and fluid in front of a wall hide it) and not
//                  writing depth.
// The tank is glass only (no frame), so it casts no shadow; the shadow map is still fitted to
// it, the scene's extent. In a frame:
//   sky -> add_shadow -> BackgroundPass::add(..., &shadow) -> add_opaque -> surfaces,
//   particles or fluid -> add_glass -> tonemap.
#include <vector>

#include "engine/core/buffer.h"
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/solids/solid_shape.h"
#include "passes/solids/solids_mesh.h"
#include "passes/solids/sun_shadow.h"

namespace meniscus::passes {

class SolidsPass {
 public:
  SolidsPass(const Context& context, std::vector<SolidShape> shapes);
  ~SolidsPass();
  SolidsPass(const SolidsPass&) = delete;
  SolidsPass& operator=(const SolidsPass&) = delete;

  SunShadow add_shadow(graph::FrameGraph& graph, graph::BufferHandle frame);
  // Each returns `targets` untouched when it has nothing to draw.
  SceneTargets add_opaque(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky_cube,
                          graph::BufferHandle frame, const SunShadow& shadow);
  // Returns the targets with the new colour; the depth is only read.
  SceneTargets add_glass(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky_cube,
                         graph::BufferHandle frame);

  const std::vector<SolidShape>& shapes() const { return shapes_; }
  const SolidsMesh& mesh() const { return mesh_; }

 private:
  graph::BufferHandle import_vertices(graph::FrameGraph& graph, const char* user) const;

  const Context& context_;
  std::vector<SolidShape> shapes_;
  SolidsMesh mesh_;
  Buffer vertices_;
  Pipeline shadow_;
  Pipeline opaque_;
  Pipeline glass_;
  VkSampler linear_;
  VkSampler shadow_sampler_;
};

}  // namespace meniscus::passes
