#pragma once
// surface.<layer>: iso-surfaces drawn straight from a HistoPyramid. Every frame each layer
// rebuilds its pyramid and draws with an indirect draw whose vertex count the GPU wrote: no CPU
// read-back anywhere in the frame. Two sources: a dense volume (the pyramid over its cells,
// histopyramid_gpu.h, for the current iso value) or a level set's cube records
// (record_pyramid_gpu.h), uploaded every frame or read from the buffer the level-set stage
// wrote them into.
#include <memory>
#include <optional>
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
  CubeRecords,  // a level set's records, given every frame by update_records or
                // use_record_buffer; the volume passed in is only the box that places them (its
                // values are not read)
};

// One frame slot's record buffer of a CubeRecords layer, in sim/histopyramid/cube_record_buffer.h's
// layout: what a level-set stage writes (a SharedBuffer's buffer, size and kind).
struct RecordBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;  // storage and transfer-source usage
  VkDeviceSize size = 0;             // at least cube_record_buffer_bytes(capacity)
  uint32_t capacity = 0;             // records it has room for
  // CUDA wrote it: the submission's timeline wait orders the writes. Otherwise the host wrote
  // it before submitting.
  bool written_on_device = false;
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
  // Where the box (the volume's units) lies in the world: for picking what the pass drew.
  glm::mat4 box_to_world() const;
  // Volume: new values, same dimensions. Idles the device first — simple and correct, at the
  // price of overlap between frames; an evolving level set uses CubeRecords instead.
  void update_volume(const sim::Volume& volume);
  // CubeRecords: layer `layer`'s records for the frame about to be recorded on `slot` (whose
  // previous frame has completed); record position p lands at `origin + voxel_size * p` in the
  // units of the box given at construction. Only the records travel: no device idle.
  void update_records(uint32_t slot, size_t layer, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size);
  // CubeRecords: layer `layer` draws the records in `records` in the frame about to be recorded
  // on `slot`, whatever count its header holds (the host need not know it). Voxel (0, 0, 0) of
  // the level set lies at `voxel0`, in the units of the box given at construction; the header
  // gives the records' origin voxel and γ. Called every frame after the slot's fence, as
  // update_records is (the later call of the two decides): that call arms the one header copy
  // the frame makes for last_record_header, however many views draw the layer.
  void use_record_buffer(uint32_t slot, size_t layer, const RecordBuffer& records, glm::vec3 voxel0, float voxel_size);
  // The header of layer `layer`'s record buffer as the last frame on `slot` that drew it read it
  // (none before one did), for the owner to grow the buffer when `needed > capacity`. Call it
  // after the slot's fence, before use_record_buffer. A frame that overflows draws `count`
  // records, so a sudden growth shows a truncated surface for a frame or two.
  std::optional<sim::CubeRecordHeader> last_record_header(uint32_t slot, size_t layer) const {
    return record_pyramids_.at(layer)->last_header(slot);
  }
  SurfaceSource source() const { return source_; }
  // The range an iso value may take: the volume's values (each layer's pyramid measured them
  // on upload), or for records the one set with set_range (a level set's band).
  glm::vec2 range() const {
    return source_ == SurfaceSource::CubeRecords ? range_ : pyramids_.empty() ? glm::vec2(0.0f) : pyramids_.front()->range();
  }
  void set_range(glm::vec2 range) { range_ = range; }

 private:
  // Layer `layer`'s pyramid for this frame, none when there is nothing to draw.
  std::optional<PyramidOutputs> add_pyramid(graph::FrameGraph& graph, size_t layer, uint32_t slot);

  const Context& context_;
  SurfaceSettings settings_;
  glm::vec4 model_rows_[3];
  SurfaceSource source_;
  glm::vec2 range_{0.0f};
  std::vector<std::unique_ptr<GpuHistoPyramid>> pyramids_;  // Volume: one per layer
  std::vector<std::unique_ptr<GpuRecordPyramid>> record_pyramids_;  // CubeRecords: one per layer
  struct BoundRecords {
    RecordBuffer buffer;
    glm::vec3 voxel0;
    float voxel_size;
    bool header_due;  // the frame's first build copies the header back
  };
  // CubeRecords, [layer][slot]: the buffer use_record_buffer gave, none after update_records.
  std::vector<std::vector<std::optional<BoundRecords>>> bound_records_;
  Pipeline opaque_, blended_;
  VkSampler sampler_;
};

}  // namespace meniscus::passes
