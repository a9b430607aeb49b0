#pragma once
// What a scene's [pass.mip] sets: which MIP is drawn, along which axis, from how deep a
// pyramid, with how many detail coefficients, through which grey window.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/mip/axis_mip.h"

namespace meniscus::passes {

enum class MipMethod {
  RayCast,          // the reference: a ray per pixel through the full volume
  Multiresolution,  // thesis §2.3.3, level by level on the adjunction pyramid
  Streaming,        // thesis §2.3.4, the first `budget` of the error-sorted details
};
const std::vector<std::string_view>& mip_method_names();  // in enum order
std::optional<MipMethod> mip_method_from_name(std::string_view name);

struct MipSettings {
  MipMethod method = MipMethod::Multiresolution;
  // The view is orthographic along this axis, one voxel column per image pixel: the view the
  // pyramid MIPs are exact for (sim/mip/axis_mip.h). The ray cast alone may turn away from it.
  sim::mip::ViewAxis axis = sim::mip::ViewAxis::Y;
  float yaw_degrees = 0.0f, pitch_degrees = 0.0f;  // ray cast only: the view turned about the volume's centre
  uint32_t levels = 3;                             // the pyramid's depth L
  double budget = 1.0;                             // streaming: the fraction of detail coefficients drawn
  // Streaming, progressive (mip_progress.h): while these settings stay as they are, each frame
  // adds the next `refine_block` details to the last frame's image, up to the budget, or fewer
  // when the auxiliary error left falls to `error_bound` (relative, 0: no bound). 0: every
  // frame draws its whole budget afresh (what a frame costs while the view moves).
  uint32_t refine_block = 0;
  double error_bound = 0.0;
  // The grey window in the volume's own values: level +- width / 2 maps to black..white.
  // Unset: the volume's full range.
  std::optional<float> window_level, window_width;
  bool flip_vertical = false;  // draw the image's v axis upwards (a scan's z up)
};

}  // namespace meniscus::passes
