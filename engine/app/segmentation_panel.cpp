#include "engine/app/segmentation_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "sim/levelset/dense_sampling.h"

namespace meniscus {
namespace {

constexpr int kMaxCells = 128;      // cells along a slice's longer side
constexpr float kSlicePixels = 200.0f;  // on screen, the longer side
constexpr int kGreyLevels = 32;
constexpr auto kRefresh = std::chrono::milliseconds(200);  // the outline follows the front this often

// The in-plane axes of the slice normal to `axis`: axial (x, y), coronal (x, z), sagittal (y, z).
glm::ivec2 plane_axes(int axis) { return axis == 0 ? glm::ivec2(1, 2) : axis == 1 ? glm::ivec2(0, 2) : glm::ivec2(0, 1); }

const char* kNames[3] = {"sagittal", "coronal", "axial"};

}  // namespace

void SegmentationPanel::refresh(sim::levelset::SegmentationStage& stage) {
  const sim::Volume& volume = stage.volume();
  const sim::levelset::SegmentationGrid& grid = stage.grid();
  const sim::levelset::SortedTileList& list = stage.current_list();  // CUDA: a download, hence the throttle
  for (int a = 0; a < 3; ++a) {
    Slice& s = slices_[a];
    s.axis = a;
    const glm::ivec2 uv = plane_axes(a);
    const glm::ivec3 dims(volume.dims);
    s.step = std::max(1, (std::max(dims[uv.x], dims[uv.y]) + kMaxCells - 1) / kMaxCells);
    s.cells = glm::ivec2((dims[uv.x] + s.step - 1) / s.step, (dims[uv.y] + s.step - 1) / s.step);
    // φ on the level set's voxel plane nearest the slice, over the grid's extent in the plane.
    glm::ivec3 min_voxel(grid.margin), slab = grid.dims;
    const glm::vec3 plane = grid.voxel_of_index(volume, glm::vec3(at_));
    min_voxel[a] = int(std::lround(plane[a]));
    slab[a] = 1;
    std::vector<float> phi;
    sim::levelset::sample_dense(list, min_voxel, slab, phi);
    s.inside.assign(size_t(s.cells.x) * s.cells.y, 0);
    for (int v = 0; v < s.cells.y; ++v)
      for (int u = 0; u < s.cells.x; ++u) {
        glm::vec3 index(at_);
        index[uv.x] = float(u * s.step);
        index[uv.y] = float(v * s.step);
        glm::ivec3 voxel = glm::ivec3(glm::round(grid.voxel_of_index(volume, index))) - min_voxel;
        voxel = glm::clamp(voxel, glm::ivec3(0), slab - 1);
        voxel[a] = 0;
        s.inside[size_t(v) * s.cells.x + u] = phi[(size_t(voxel.z) * slab.y + voxel.y) * slab.x + voxel.x] < 0.0f;
      }
  }
  refreshed_ = std::chrono::steady_clock::now();
  refreshed_step_ = stage.steps();
}

void SegmentationPanel::draw_slice(sim::levelset::SegmentationStage& stage, Slice& s) {
  const sim::Volume& volume = stage.volume();
  const glm::ivec2 uv = plane_axes(s.axis);
  const glm::vec3 extent = glm::vec3(volume.dims) * volume.spacing;
  const float mm_px = kSlicePixels / std::max(extent[uv.x], extent[uv.y]);
  const ImVec2 cell(s.step * volume.spacing[uv.x] * mm_px, s.step * volume.spacing[uv.y] * mm_px);
  const ImVec2 size(s.cells.x * cell.x, s.cells.y * cell.y);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::PushID(s.axis);
  const bool clicked = ImGui::InvisibleButton("slice", size);
  ImGui::PopID();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const glm::vec2 range = volume.range();
  const float lower = stage.control_params().lower, upper = stage.control_params().upper;
  // Rows drawn top down with v growing upwards (superior up on coronal and sagittal slices).
  const auto corner = [&](int u, int v) { return ImVec2(origin.x + u * cell.x, origin.y + (s.cells.y - 1 - v) * cell.y); };
  const auto sample = [&](int u, int v) {
    glm::uvec3 index(at_);
    index[uv.x] = uint32_t(u * s.step);
    index[uv.y] = uint32_t(v * s.step);
    return volume.at(index.x, index.y, index.z);
  };
  for (int v = 0; v < s.cells.y; ++v) {
    // Runs of equal grey, then runs inside the thresholds' window, then the segmentation.
    for (int pass = 0; pass < 3; ++pass) {
      int run_start = 0, run_key = -1;
      for (int u = 0; u <= s.cells.x; ++u) {
        int key = -1;
        if (u < s.cells.x) {
          const float value = sample(u, v);
          const bool inside = s.inside.size() == size_t(s.cells.x) * s.cells.y && s.inside[size_t(v) * s.cells.x + u];
          if (pass == 0) key = int(std::clamp((value - range.x) / std::max(range.y - range.x, 1e-6f), 0.0f, 1.0f) * (kGreyLevels - 1));
          if (pass == 1) key = value >= lower && value <= upper && !inside ? 1 : -1;
          if (pass == 2) key = inside ? 1 : -1;
        }
        if (key == run_key) continue;
        if (run_key >= 0) {
          ImU32 colour;
          if (pass == 0) {
            const int g = 255 * run_key / (kGreyLevels - 1);
            colour = IM_COL32(g, g, g, 255);
          } else {
            colour = pass == 1 ? IM_COL32(60, 200, 90, 70) : IM_COL32(255, 150, 40, 110);
          }
          const ImVec2 a = corner(run_start, v);
          draw->AddRectFilled(a, ImVec2(a.x + (u - run_start) * cell.x, a.y + cell.y), colour);
        }
        run_start = u;
        run_key = key;
      }
    }
    // The outline: inside cells with an outside neighbour.
    for (int u = 0; u < s.cells.x && !s.inside.empty(); ++u) {
      const auto in = [&](int x, int y) {
        return x >= 0 && y >= 0 && x < s.cells.x && y < s.cells.y && s.inside[size_t(y) * s.cells.x + x];
      };
      if (in(u, v) && !(in(u - 1, v) && in(u + 1, v) && in(u, v - 1) && in(u, v + 1))) {
        const ImVec2 a = corner(u, v);
        draw->AddRectFilled(a, ImVec2(a.x + cell.x, a.y + cell.y), IM_COL32(255, 230, 60, 255));
      }
    }
  }
  // Where the other two slices cross this one.
  const ImVec2 cross = corner(at_[uv.x] / s.step, at_[uv.y] / s.step);
  draw->AddLine(ImVec2(cross.x + 0.5f * cell.x, origin.y), ImVec2(cross.x + 0.5f * cell.x, origin.y + size.y), IM_COL32(80, 160, 255, 160));
  draw->AddLine(ImVec2(origin.x, cross.y + 0.5f * cell.y), ImVec2(origin.x + size.x, cross.y + 0.5f * cell.y), IM_COL32(80, 160, 255, 160));
  if (clicked) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int u = std::clamp(int((mouse.x - origin.x) / cell.x), 0, s.cells.x - 1);
    const int v = std::clamp(s.cells.y - 1 - int((mouse.y - origin.y) / cell.y), 0, s.cells.y - 1);
    at_[uv.x] = std::min(u * s.step, int(volume.dims[uv.x]) - 1);
    at_[uv.y] = std::min(v * s.step, int(volume.dims[uv.y]) - 1);
    try {
      stage.add_seed(glm::vec3(at_), seed_radius_);
      error_.clear();
    } catch (const InputError& e) {
      error_ = e.what();
    }
    refreshed_step_ = -1;
  }
}

void SegmentationPanel::draw(sim::levelset::SegmentationStage& stage) {
  const glm::ivec3 dims(stage.volume().dims);
  if (at_.x < 0) at_ = dims / 2;
  ImGui::SliderFloat("seed radius (samples)", &seed_radius_, 0.5f, 20.0f, "%.1f");
  ImGui::SameLine();
  ImGui::BeginDisabled(stage.seeds_placed() == 0);
  if (ImGui::Button("undo seed") && stage.undo_seed()) refreshed_step_ = -1;
  ImGui::EndDisabled();
  bool moved = false;
  for (int a = 2; a >= 0; --a) moved |= ImGui::SliderInt(kNames[a], &at_[a], 0, dims[a] - 1);
  const bool stale = refreshed_step_ != stage.steps() && std::chrono::steady_clock::now() - refreshed_ > kRefresh;
  if (moved || stale || refreshed_step_ < 0) refresh(stage);
  ImGui::TextUnformatted("click a slice to place a seed there");
  for (int a = 2; a >= 0; --a) {
    draw_slice(stage, slices_[a]);
    if (a > 0) ImGui::SameLine();
  }
  if (!error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", error_.c_str());
}

}  // namespace meniscus
