#pragma once
// The frame-graph passes every GPU HistoPyramid records (Dyken et al. 2008, §3-4):
//   <name>.<count>     level 0: the vertex count of every source element
//   <name>.<reduce>    levels 1..top: sums of the level below, one dispatch per level
//   <name>.<indirect>  the top's sum becomes the indirect draw's vertex count
//   <name>.<extract>   (on request) the vertices, written into a buffer
// The dense-volume pyramid (histopyramid_gpu.h) and the cube-record pyramid
// (record_pyramid_gpu.h) differ only in their source buffer, their shaders, their push
// constants and the workgroups each level needs; they hand those over here, so the bindings,
// the access declarations and the barrier between levels are written once for both.
#include <array>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/core/buffer.h"
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::passes {

// The case tables as the shaders read them: per case the triangle count, then 36 edge ids
// (kMcTableStride words per case).
inline constexpr uint32_t kMcTableStride = 37;
std::vector<uint32_t> packed_mc_tables();

// One pyramid shader's push constants, whichever kind: both kinds push 64 bytes, which leaves
// the drawing pass the other half of lavapipe's 128 (see surface_pass.cpp).
struct PyramidConstants {
  std::array<std::byte, 64> bytes;

  template <typename Params>
  static PyramidConstants of(const Params& params) {
    static_assert(sizeof(Params) == sizeof(bytes), "pyramid push constants are 64 bytes");
    PyramidConstants constants;
    std::memcpy(constants.bytes.data(), &params, sizeof(params));
    return constants;
  }
};

// One level of this frame's pyramid: what its dispatch pushes and how many workgroups it takes.
struct PyramidLevel {
  PyramidConstants constants;
  glm::uvec2 workgroups;
};

// The names that tell one kind of pyramid from the other. The shader stems (`hp_classify` for
// hp_classify.comp) also name the passes: `<name>.hp_classify`.
struct PyramidKind {
  const char* count_shader;     // level 0 from the source (bindings 0-2)
  const char* reduce_shader;    // levels 1..top (bindings 0-2)
  const char* indirect_shader;  // the draw arguments (bindings 0-3)
  const char* extract_shader;   // the vertices (bindings 0-4)
  const char* pyramid_buffer;   // the pyramid's transient buffer: `<name>.<pyramid_buffer>`
};

// A built pyramid as its shaders (and the drawing vertex shader) bind it: 0 the source (volume
// or records), 1 the pyramid, 2 the case tables, 3 the draw arguments.
struct PyramidOutputs {
  graph::BufferHandle source, pyramid, tables, indirect;
  PyramidConstants constants;  // level 0's: what the extraction and the drawing push
};

class PyramidPasses {
 public:
  // `name` prefixes the passes and resources (`surface.skin` -> `surface.skin.hp_classify`);
  // `tables` holds packed_mc_tables(), written once before the first frame.
  PyramidPasses(const Context& context, std::string name, const PyramidKind& kind, Buffer tables);

  // The count, reduce and indirect passes over `source` (already imported, readable by compute
  // shaders); `levels` from level 0 up, the reduce pass only when there is more than one.
  PyramidOutputs add(graph::FrameGraph& graph, graph::BufferHandle source, uint64_t pyramid_bytes,
                     const std::vector<PyramidLevel>& levels) const;
  // Extraction into `vertices` (two vec4 per vertex), at most max_vertices.
  graph::BufferHandle add_extract(graph::FrameGraph& graph, const PyramidOutputs& pyramid,
                                  graph::BufferHandle vertices, uint32_t max_vertices) const;

 private:
  std::string name_;
  PyramidKind kind_;
  Buffer tables_;
  Pipeline count_, reduce_, indirect_, extract_;
};

}  // namespace meniscus::passes
