#pragma once
// A level set's surface on the GPU from its cube records (Jalba et al. 2013, §3.4), through a
// 1D HistoPyramid (Dyken et al. 2008, §3) built in the frame graph every frame:
//   <name>.rp_count     level 0: the vertex count of every record, four records per uvec4
//   <name>.rp_reduce    levels 1..top: sums of four texels, down to one
//   <name>.rp_indirect  the top's sum becomes the indirect draw's vertex count
// The passes themselves are recorded by pyramid_passes.h, shared with the dense-volume pyramid.
// The records are all a frame uploads (15 bytes per crossed cell), into a host-visible buffer
// per frame slot; the vertex count stays on the GPU. shaders/include/record_pyramid.glsl holds
// the traversal the drawing vertex shader and the extraction share; the CPU reference is
// sim/histopyramid/record_mesh.h.
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/buffer.h"
#include "engine/graph/frame_graph.h"
#include "passes/surface/pyramid_passes.h"
#include "sim/histopyramid/cube_record.h"

namespace meniscus::passes {

// Push constants of every record-pyramid shader (64 bytes; see record_pyramid.glsl).
struct RecordPyramidParams {
  glm::uvec4 counts{0};     // x = record count, y = level count, z = level being built
  glm::vec4 placement{0};   // xyz = position of record position (0, 0, 0), w = voxel size
  glm::vec4 decode{0};      // x = value of one code step (γ / 128)
  glm::vec4 unused{0};
};
static_assert(sizeof(RecordPyramidParams) == 64);

class GpuRecordPyramid {
 public:
  // `slots`: frames in flight, each with its own record buffer. `name` prefixes passes and
  // resources (`surface.lucy` -> `surface.lucy.rp_count`).
  GpuRecordPyramid(const Context& context, uint32_t slots, std::string name);

  // Copies the records for the frame about to be recorded on `slot`, whose previous frame must
  // have completed; record position p lands at `origin + voxel_size * p`.
  void upload(uint32_t slot, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size);
  // The pyramid passes over `slot`'s records (the outputs' source); none (nothing to draw)
  // when it holds no records.
  std::optional<PyramidOutputs> add(graph::FrameGraph& graph, uint32_t slot);
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
  const Context& context_;
  std::string name_;
  std::vector<Slot> slots_;
  PyramidPasses passes_;
};

}  // namespace meniscus::passes
