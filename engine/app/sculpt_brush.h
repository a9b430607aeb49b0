#pragma once
// The sculpting brush under the mouse (the thesis §7.6.3): while Shift (raise) or Ctrl (carve)
// and the left button are held over a level set the surface pass draws, the brush sits where
// the mouse ray meets the surface and the level-set stage evolves under its speed (brush.h).
// Its radius and strength are panel sliders.
#include <optional>

#include <glm/glm.hpp>

#include "engine/app/camera.h"
#include "passes/surface/surface_pass.h"
#include "sim/levelset/levelset_stage.h"

namespace meniscus {

enum class BrushMode { kNone, kRaise, kCarve };

class SculptBrush {
 public:
  void draw_controls();
  // Places the stage's brush for this frame from the cursor (pixels, origin top left, in a
  // viewport of `viewport` pixels), or releases it. The CUDA backend downloads its level set
  // for the pick while the brush is held: a user's stroke, not every frame.
  void aim(sim::levelset::LevelSetStage& stage, const passes::SurfacePass& surface, const CameraPose& camera,
           glm::vec2 cursor, glm::vec2 viewport, BrushMode mode);
  bool active() const { return active_; }

 private:
  float radius_voxels_ = 6.0f;  // 3σ
  float strength_ = 4.0f;       // f0, voxels per unit time
  bool active_ = false;
};

}  // namespace meniscus
