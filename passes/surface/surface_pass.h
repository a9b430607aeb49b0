#pragma once
// surface.<layer>: iso-surfaces of a volume drawn straight from the HistoPyramid. Every frame
// each layer rebuilds its pyramid for its current iso value and draws with an indirect draw
// whose vertex count the GPU wrote: no CPU read-back anywhere in the frame.
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/surface/histopyramid_gpu.h"

namespace meniscus::passes {

struct SurfaceLayer {
  std::string name;  // "skin", "bone"
  float iso = 0.0f;
  glm::vec3 color{0.8f};
  float opacity = 1.0f;  // < 1: blended over the opaque layers, no depth write
  bool visible = true;
};

struct SurfaceSettings {
  float size = 2.0f;                  // the volume's largest extent, in metres
  glm::vec3 position{0.0f, 1.0f, 0.0f};  // where the volume's centre goes
  std::string up_axis = "y";             // the volume axis that points up in the world: "y", "z" or "-z"
  std::vector<SurfaceLayer> layers;
};

class SurfacePass {
 public:
  SurfacePass(const Context& context, const sim::Volume& volume, const SurfaceSettings& settings);
  ~SurfacePass();
  SurfacePass(const SurfacePass&) = delete;
  SurfacePass& operator=(const SurfacePass&) = delete;

  SceneTargets add(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky,
                   graph::BufferHandle frame);

  std::vector<SurfaceLayer>& layers() { return settings_.layers; }
  // A volume that changes every frame (an evolving level set): new values, same dimensions.
  // Idles the device first — simple and correct, at the price of overlap between frames; a
  // level set's own GPU extraction (cube records from its tiles) would not need it.
  void update_volume(const sim::Volume& volume);
  // The volume's value range (each layer's pyramid measured it once on upload).
  glm::vec2 range() const { return pyramids_.empty() ? glm::vec2(0.0f) : pyramids_.front()->range(); }

 private:
  const Context& context_;
  SurfaceSettings settings_;
  glm::vec4 model_rows_[3];
  std::vector<std::unique_ptr<GpuHistoPyramid>> pyramids_;  // one per layer
  Pipeline opaque_, blended_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
