#pragma once
// A level set's surface on the GPU from its cube records (Jalba et al. 2013, §3.4), through a
// 1D HistoPyramid (Dyken et al. 2008, §3) built in the frame graph every frame:
//   <name>.rp_count     level 0: the vertex count of every record, four records per uvec4
//   <name>.rp_reduce    levels 1..top: sums of four texels, down to one
//   <name>.rp_indirect  the top's sum becomes the indirect draw's vertex count
// The passes themselves are recorded by pyramid_passes.h, shared with the dense-volume pyramid.
// The shaders read a record buffer in sim/histopyramid/cube_record_buffer.h's layout (a header
// with the count, origin and γ, then the records), from one of two sources:
//  - upload(): a host CubeRecordSet copied into a host-visible buffer per frame slot (the CPU
//    path and the tests), levels sized for its records;
//  - add() with a RecordBufferSource: a buffer the level-set stage wrote (a SharedBuffer, by
//    CUDA or the CPU), whose count the host does not know. Levels are sized for its capacity,
//    the shaders take the count from its header, and the header comes back a frame later
//    (record_header_readback.h) so the owner can grow the buffer.
// Either way the vertex count stays on the GPU. shaders/include/record_pyramid.glsl holds the
// traversal the drawing vertex shader and the extraction share; the CPU reference is
// sim/histopyramid/record_mesh.h.
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/buffer.h"
#include "engine/graph/frame_graph.h"
#include "passes/surface/pyramid_passes.h"
#include "passes/surface/record_header_readback.h"
#include "sim/histopyramid/cube_record.h"

namespace meniscus::passes {

// Push constants of every record-pyramid shader (64 bytes; see record_pyramid.glsl).
struct RecordPyramidParams {
  glm::uvec4 counts{0};     // x = records the levels are sized for, y = level count,
                            // z = level being built, w = the buffer's capacity in records
  glm::vec4 placement{0};   // xyz = position of voxel (0, 0, 0), w = voxel size
  glm::vec4 unused[2]{};
};
static_assert(sizeof(RecordPyramidParams) == 64);

// A record buffer the caller imported into this frame's graph: by the CUDA backend with initial
// access None (the submission's timeline wait orders its writes), by the CPU backend HostWrite.
// It must allow storage reads and transfer reads (a SharedBuffer does) and hold at least
// cube_record_buffer_bytes(capacity) bytes.
struct RecordBufferSource {
  graph::BufferHandle records;
  uint32_t capacity = 0;           // records it has room for
  glm::vec3 voxel0{0.0f};          // where voxel (0, 0, 0) of the level set lies, in box units
  float voxel_size = 1.0f;
  // Copy the header back for last_header(). Once per frame and slot: a second build of the same
  // frame (the other view of a split screen) leaves it off.
  bool read_back_header = true;
};

class GpuRecordPyramid {
 public:
  // `slots`: frames in flight, each with its own record buffer. `name` prefixes passes and
  // resources (`surface.lucy` -> `surface.lucy.rp_count`).
  GpuRecordPyramid(const Context& context, uint32_t slots, std::string name);

  // Copies the records for the frame about to be recorded on `slot`, whose previous frame must
  // have completed; record position p lands at `origin + voxel_size * p`.
  void upload(uint32_t slot, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size);
  // The pyramid passes over `slot`'s uploaded records (the outputs' source); none (nothing to
  // draw) when it holds no records.
  std::optional<PyramidOutputs> add(graph::FrameGraph& graph, uint32_t slot);
  // The pyramid passes over a record buffer for the frame recorded on `slot`: record position p
  // of the header's origin o lands at `voxel0 + voxel_size * (o + p)`, decoded with the
  // header's γ. Always built, even for a header whose count is 0: only the GPU knows it.
  PyramidOutputs add(graph::FrameGraph& graph, uint32_t slot, const RecordBufferSource& source);
  // The header of the record buffer the last frame on `slot` read (add() with a source and
  // read_back_header), none before one did. Call it after the slot's fence, before recording
  // the slot again. `needed > capacity` asks for a larger buffer; the frame drew `count`
  // records meanwhile (see record_header_readback.h for the frames drawn truncated).
  std::optional<sim::CubeRecordHeader> last_header(uint32_t slot) const { return headers_.last(slot); }

  // Its passes, for the extraction: pairs of vec4 per vertex, position + record index bits,
  // normal + local key bits.
  const PyramidPasses& passes() const { return passes_; }

  // Pyramid levels over `records` records (at least one), and texels in each.
  static std::vector<uint32_t> level_texels(uint32_t records);

 private:
  struct Slot {
    Buffer records;
    RecordPyramidParams params;
  };
  // The passes over `records`, whose levels are sized for params.counts.x records.
  PyramidOutputs build(graph::FrameGraph& graph, graph::BufferHandle records, const RecordPyramidParams& params) const;
  // Throws InputError unless `records` records fit one storage buffer of this device.
  void check_fits(uint64_t records) const;

  const Context& context_;
  std::string name_;
  std::vector<Slot> slots_;
  PyramidPasses passes_;
  RecordHeaderReadback headers_;
};

}  // namespace meniscus::passes
