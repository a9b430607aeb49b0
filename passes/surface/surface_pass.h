#pragma once
// surface.<layer>: iso-surfaces drawn straight from a HistoPyramid. Every frame each layer
// rebuilds its pyramid and draws with an indirect draw whose vertex count the GPU wrote: no CPU
// read-back anywhere in the frame. Two sources: a dense volume (the pyramid over its cells,
// histopyramid_gpu.h, for the current iso value) or a level set's cube records, uploaded
// every frame (record_pyramid_gpu.h).
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/background/background_pass.h"
#include "passes/surface/histopyramid_gpu.h"
#include "passes/surface/record_pyramid_gpu.h"
#include "sim/histopyramid/cube_record.h"

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

enum class SurfaceSource {
  Volume,       // the volume's values, uploaded once (update_volume replaces them)
  CubeRecords,  // a level set's records, given every frame by update_records; the volume
                // passed in is only the box that places them (its values are not read)
};

class SurfacePass {
 public:
  // `frames_in_flight`: CubeRecords keeps one record buffer per frame slot.
  SurfacePass(const Context& context, const sim::Volume& volume, const SurfaceSettings& settings,
              SurfaceSource source = SurfaceSource::Volume, uint32_t frames_in_flight = 1);
  ~SurfacePass();
  SurfacePass(const SurfacePass&) = delete;
  SurfacePass& operator=(const SurfacePass&) = delete;

  // `slot`: the frame slot being recorded (the records uploaded for it are drawn).
  SceneTargets add(graph::FrameGraph& graph, const SceneTargets& targets, graph::ImageHandle sky,
                   graph::BufferHandle frame, uint32_t slot = 0);

  std::vector<SurfaceLayer>& layers() { return settings_.layers; }
  // Volume: new values, same dimensions. Idles the device first — simple and correct, at the
  // price of overlap between frames; an evolving level set uses CubeRecords instead.
  void update_volume(const sim::Volume& volume);
  // CubeRecords: layer `layer`'s records for the frame about to be recorded on `slot` (whose
  // previous frame has completed); record position p lands at `origin + voxel_size * p` in the
  // units of the box given at construction. Only the records travel: no device idle.
  void update_records(uint32_t slot, size_t layer, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size);
  SurfaceSource source() const { return source_; }
  // The range an iso value may take: the volume's values (each layer's pyramid measured them
  // on upload), or for records the one set with set_range (a level set's band).
  glm::vec2 range() const {
    return source_ == SurfaceSource::CubeRecords ? range_ : pyramids_.empty() ? glm::vec2(0.0f) : pyramids_.front()->range();
  }
  void set_range(glm::vec2 range) { range_ = range; }

 private:
  const Context& context_;
  SurfaceSettings settings_;
  glm::vec4 model_rows_[3];
  SurfaceSource source_;
  glm::vec2 range_{0.0f};
  std::vector<std::unique_ptr<GpuHistoPyramid>> pyramids_;  // Volume: one per layer
  std::vector<std::unique_ptr<GpuRecordPyramid>> record_pyramids_;  // CubeRecords: one per layer
  Pipeline opaque_, blended_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
