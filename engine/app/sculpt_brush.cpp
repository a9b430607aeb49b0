#include "engine/app/sculpt_brush.h"

#include <imgui.h>

#include "sim/levelset/ray_hit.h"

namespace meniscus {

void SculptBrush::draw_controls() {
  ImGui::TextUnformatted("sculpt: Shift+drag raises, Ctrl+drag carves");
  ImGui::SliderFloat("brush radius (voxels)", &radius_voxels_, 1.0f, 40.0f, "%.1f");
  ImGui::SliderFloat("brush strength", &strength_, 0.1f, 20.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
}

void SculptBrush::aim(sim::levelset::LevelSetStage& stage, const passes::SurfacePass& surface, const CameraPose& camera,
                      glm::vec2 cursor, glm::vec2 viewport, BrushMode mode) {
  active_ = false;
  if (mode == BrushMode::kNone || viewport.x <= 0 || viewport.y <= 0) {
    stage.set_brush(std::nullopt);
    return;
  }
  // The mouse ray in the world (Vulkan clip space: y down, depth 0..1), then in voxels.
  const glm::vec2 ndc = 2.0f * cursor / viewport - 1.0f;
  const glm::mat4 clip_to_world = glm::inverse(camera.proj * camera.view);
  const auto unproject = [&](float depth) {
    const glm::vec4 p = clip_to_world * glm::vec4(ndc, depth, 1.0f);
    return glm::vec3(p) / p.w;
  };
  const glm::mat4 world_to_box = glm::inverse(surface.box_to_world());
  const float h = stage.voxel_size();
  const auto to_voxels = [&](glm::vec3 world) { return (glm::vec3(world_to_box * glm::vec4(world, 1.0f)) - stage.voxel0()) / h; };
  const glm::vec3 from = to_voxels(unproject(0.0f)), to = to_voxels(unproject(1.0f));
  const auto hit = sim::levelset::first_hit(stage.host_level_set(), from, to - from, glm::length(to - from));
  if (!hit) {
    stage.set_brush(std::nullopt);
    return;
  }
  stage.set_brush(sim::levelset::Brush{stage.voxel0() + *hit * h, radius_voxels_ * h,
                                       mode == BrushMode::kRaise ? strength_ : -strength_});
  active_ = true;
}

}  // namespace meniscus
