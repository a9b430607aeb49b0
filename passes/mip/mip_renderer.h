#pragma once
// mip.*: the MIP image of a volume, by the reference ray cast or from its adjunction pyramid
// (thesis ch. 2). The volume (one uint per voxel, uploaded once) and the pyramid's coefficient
// stream (built once by the scene's backend into a SharedBuffer, sim/mip/coefficient_stream_stage.h)
// live for the renderer's life; each
// frame's image is a transient buffer of uints, level 0 first (see shaders/include/mip_levels.glsl).
//   mip.ray_cast         one ray per pixel, DDA through the voxels (shaders/mip_raycast.comp)
//   mip.multiresolution  clear, project every coefficient into its level's image, then per level
//                        L-1..0 EXPAND and max (shaders/mip_project.comp, mip_expand.comp)
//   mip.streaming        clear, project f_L and the first `budget` details as 2^level squares
//   mip.refine           streaming with refine_block > 0: the next block of details maxed into
//                        the image kept from the last frame (mip_progress.h), cleared and
//                        started from f_L when the settings change
#include <cstdint>

#include "engine/core/buffer.h"
#include "engine/core/pipeline.h"
#include "engine/graph/frame_graph.h"
#include "passes/mip/mip_progress.h"
#include "passes/mip/mip_settings.h"
#include "sim/mip/coefficient_stream_stage.h"
#include "sim/mip/grey_volume.h"

namespace meniscus::passes {

// A frame's MIP image: `buffer` holds width x height grey levels, rows `stride` apart.
struct MipImageBuffer {
  graph::BufferHandle buffer;
  uint32_t width = 0, height = 0, stride = 0;
};

class MipRenderer {
 public:
  // Builds the pyramid (`levels` deep) and its stream on `backend`; InputError when the volume
  // cannot have one, DeviceError when the backend is CUDA and no CUDA device is this one.
  MipRenderer(const Context& context, const sim::mip::GreyVolume& volume, uint32_t levels,
              sim::SimBackend backend = sim::SimBackend::Cpu);

  MipImageBuffer add(graph::FrameGraph& graph, const MipSettings& settings);

  const sim::mip::StreamIndex& stream() const { return stream_.index(); }
  const sim::mip::CoefficientStreamStage& stream_stage() const { return stream_; }
  // The progressive streaming image's state after the last add() with refine_block > 0.
  const MipProgress& progress() const { return progress_; }
  glm::uvec3 dims() const { return dims_; }

 private:
  MipImageBuffer add_ray_cast(graph::FrameGraph& graph, const MipSettings& settings);
  MipImageBuffer add_pyramid(graph::FrameGraph& graph, const MipSettings& settings);
  MipImageBuffer add_progressive(graph::FrameGraph& graph, const MipSettings& settings);
  void record_clear(VkCommandBuffer cmd, VkBuffer pixels, uint32_t count) const;
  void record_project(VkCommandBuffer cmd, VkBuffer pixels, uint32_t first, uint32_t count, uint32_t axis, bool squares,
                      glm::uvec2 padded) const;

  glm::uvec3 dims_;
  sim::mip::CoefficientStreamStage stream_;
  Buffer volume_;
  Buffer refined_;       // the progressive image, kept across frames; sized for any view axis
  MipProgress progress_;
  Pipeline ray_cast_, clear_, project_, expand_;
};

}  // namespace meniscus::passes
