#pragma once
// The panel of a segment stage (sim/levelset/segmentation_stage.h): its scan's three orthogonal
// slices, grey between the thresholds' window, with the current segmentation tinted and its
// outline drawn; a click on a slice places a seed at that sample (and moves the other two
// slices through it), "undo seed" takes the last one back. Drawn with ImGui's draw lists, a
// rectangle per run of equal cells, so no texture has to reach the UI.
#include <array>
#include <chrono>
#include <vector>

#include <glm/glm.hpp>

#include "sim/levelset/segmentation_stage.h"

namespace meniscus {

class SegmentationPanel {
 public:
  void draw(sim::levelset::SegmentationStage& stage);

 private:
  struct Slice {
    int axis = 0;        // the axis it is normal to
    glm::ivec2 cells{0};  // cells along its two in-plane axes
    int step = 1;         // samples per cell
    std::vector<uint8_t> inside;  // per cell, from the level set at the last refresh
  };

  void refresh(sim::levelset::SegmentationStage& stage);
  void draw_slice(sim::levelset::SegmentationStage& stage, Slice& slice);

  glm::ivec3 at_{-1};  // the sample the three slices pass through
  float seed_radius_ = 2.0f;
  std::array<Slice, 3> slices_;
  std::chrono::steady_clock::time_point refreshed_{};
  int refreshed_step_ = -1;
  std::string error_;
};

}  // namespace meniscus
