#pragma once
// The segmentation stage ([[stage]] type = "segment"): Lefohn & Whitaker's threshold level set
// (segmentation.h) grown live from seed spheres in a scanned volume, drawn like any level set
// from the cube records of each frame. Its thresholds and curvature weight are panel controls
// that act mid-run (the front goes on from where it is), and seeds can be placed and taken back
// while it runs (engine/app/segmentation_panel.h places them from clicks on the slices).
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "sim/levelset/levelset_stage.h"
#include "sim/levelset/segmentation.h"

namespace meniscus {
class Context;
class TimelineSemaphore;
}

namespace meniscus::sim::levelset {

struct SegmentationStageParams {
  std::filesystem::path volume;    // a .nrrd/.nhdr/.vtk/.nii/.nii.gz scan
  std::vector<glm::vec4> seeds;    // sample indices of the volume and a radius in samples
  SegmentationParams segmentation;
  int steps_per_frame = 4;
  double rms = 0.002;  // a front that changes less than this per step rests (no steps until a change)
};

class SegmentationStage final : public LevelSetStage {
 public:
  // Loads the volume and places the seeds (InputError naming the file or the seed); CUDA throws
  // DeviceError when no device answers.
  SegmentationStage(const SegmentationStageParams& params, SimBackend backend, const Context& context);
  ~SegmentationStage() override;

  SimBackend backend() const override { return segmentation_->backend(); }
  std::vector<StageControl> controls() override;
  void step(double dt) override;
  std::string summary() const override;

  const Volume& box() const override { return box_; }
  std::optional<uint32_t> write_records(SharedBuffer& target, uint32_t capacity, float phi_iso) override;
  std::optional<GpuWait> gpu_wait() const override;
  glm::vec3 voxel0() const override;
  const CubeRecordSet& records(float phi_iso) override;
  const SortedTileList& host_level_set() override { return segmentation_->list(); }
  glm::vec3 record_origin() const override;
  float gamma() const override { return gamma_; }
  size_t tiles() const override { return tiles_; }
  double time() const override { return segmentation_->time(); }
  void set_brush(const std::optional<Brush>&) override {}  // segmentations are not sculpted

  // For the panel: the scan, the grid the level set lives on and the current level set (CUDA:
  // downloaded, so the panel asks a few times a second, not every frame).
  const Volume& volume() const { return volume_; }
  const SegmentationGrid& grid() const { return grid_; }
  const SortedTileList& current_list() { return segmentation_->list(); }
  // A seed at sample `index` (radius in samples) while it runs; InputError outside the volume.
  void add_seed(glm::vec3 index, float radius);
  bool undo_seed();
  size_t seeds_placed() const { return segmentation_->seeds_placed(); }
  bool resting() const { return resting_; }
  int steps() const { return segmentation_->steps(); }
  // The thresholds and weight the panel's controls hold (applied at the next step).
  const SegmentationParams& control_params() const { return controls_; }

 private:
  Volume volume_;
  SegmentationGrid grid_;
  SegmentationStageParams params_;
  SegmentationParams controls_;  // what the panel's sliders edit; applied at the next step
  std::unique_ptr<Segmentation> segmentation_;
  Volume box_;
  float gamma_ = 1.5f;
  size_t tiles_ = 0;
  double last_rms_ = 0.0;
  bool resting_ = false;
  CubeRecordSet records_;
  bool records_current_ = false;
  std::unique_ptr<TimelineSemaphore> timeline_;  // CUDA: orders the record writes before the frame
  uint64_t written_ = 0;
};

}  // namespace meniscus::sim::levelset
