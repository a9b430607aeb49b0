#include "sim/levelset/segmentation_stage.h"

#include <cstdio>

#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/gpu_stl_records.h"
#include "sim/levelset/seed_spheres.h"

namespace meniscus::sim::levelset {
namespace {

void require_inside(const Volume& volume, glm::vec3 index, const std::string& what) {
  const glm::vec3 last = glm::vec3(volume.dims) - 1.0f;
  if (glm::any(glm::lessThan(index, glm::vec3(0.0f))) || glm::any(glm::greaterThan(index, last)))
    throw InputError(volume.source + ": " + what + " at sample (" + std::to_string(index.x) + ", " +
                     std::to_string(index.y) + ", " + std::to_string(index.z) + ") lies outside the volume");
}

}  // namespace

SegmentationStage::SegmentationStage(const SegmentationStageParams& params, SimBackend backend, const Context& context)
    : volume_(load_volume(params.volume.string())), grid_(segmentation_grid(volume_)), params_(params),
      controls_(params.segmentation) {
  check_segmentation_params(params.segmentation, volume_.source);
  if (params.seeds.empty()) throw InputError(volume_.source + ": a segment stage needs at least one seed");
  std::vector<SeedSphere> spheres;
  for (size_t i = 0; i < params.seeds.size(); ++i) {
    require_inside(volume_, glm::vec3(params.seeds[i]), "seeds[" + std::to_string(i) + "]");
    spheres.push_back(seed_at_sample(volume_, grid_, glm::vec3(params.seeds[i]), params.seeds[i].w));
  }
  SortedTileList initial(gamma_);
  build_from_spheres(initial, spheres, volume_.source);
  tiles_ = initial.size();
  segmentation_ = make_segmentation(volume_, grid_, std::move(initial), params.segmentation, backend);
  if (backend == SimBackend::Cuda) timeline_ = std::make_unique<TimelineSemaphore>(context, /*cuda_shared=*/true);
  box_.dims = glm::uvec3(grid_.dims);
  box_.spacing = glm::vec3(grid_.voxel_size);
  box_.origin = volume_.origin;
  box_.source = volume_.source;
}

SegmentationStage::~SegmentationStage() = default;

std::vector<StageControl> SegmentationStage::controls() {
  const glm::vec2 range = volume_.range();
  return {{"lower threshold", &controls_.lower, range.x, range.y, false},
          {"upper threshold", &controls_.upper, range.x, range.y, false},
          {"curvature weight", &controls_.curvature, 0.0f, 0.95f, false}};
}

void SegmentationStage::step(double dt) {
  if (dt <= 0.0) return;
  const SegmentationParams& now = segmentation_->params();
  if (controls_.lower != now.lower || controls_.upper != now.upper || controls_.curvature != now.curvature) {
    // A slider dragged past the other threshold waits until they are in order again.
    if (controls_.lower < controls_.upper) {
      segmentation_->set_params(controls_);
      resting_ = false;
    }
  }
  if (resting_) return;
  for (int k = 0; k < params_.steps_per_frame && segmentation_->tiles() > 0; ++k) {
    const SegmentationStep s = segmentation_->step();
    last_rms_ = s.rms_change;
    resting_ = s.front_voxels > 0 && s.rms_change <= params_.rms;
    if (resting_) break;
  }
  tiles_ = segmentation_->tiles();
  records_current_ = false;
}

void SegmentationStage::add_seed(glm::vec3 index, float radius) {
  require_inside(volume_, index, "the seed");
  segmentation_->add_seed(seed_at_sample(volume_, grid_, index, radius), volume_.source);
  tiles_ = segmentation_->tiles();
  resting_ = false;
  records_current_ = false;
}

bool SegmentationStage::undo_seed() {
  if (!segmentation_->undo_seed()) return false;
  tiles_ = segmentation_->tiles();
  resting_ = false;
  records_current_ = false;
  return true;
}

std::string SegmentationStage::summary() const {
  char text[160];
  std::snprintf(text, sizeof text, "%zu tiles, step %d, rms change %.3g%s", tiles_, segmentation_->steps(), last_rms_,
                resting_ ? " (resting)" : "");
  return text;
}

std::optional<uint32_t> SegmentationStage::write_records(SharedBuffer& target, uint32_t capacity, float phi_iso) {
  if (GpuSortedTileList* device = segmentation_->device_list()) {
    write_cube_records(*device, phi_iso, target.cuda_pointer(), capacity, volume_.source.c_str());
    timeline_->cuda_signal(++written_, nullptr);
    return std::nullopt;
  }
  return write_cube_records(segmentation_->list(), phi_iso, static_cast<std::byte*>(target.host_pointer()), capacity,
                            volume_.source.c_str());
}

std::optional<GpuWait> SegmentationStage::gpu_wait() const {
  if (!timeline_ || written_ == 0) return std::nullopt;
  return GpuWait{timeline_->handle(), written_};
}

glm::vec3 SegmentationStage::voxel0() const { return box_.origin - float(grid_.margin) * box_.spacing; }

const CubeRecordSet& SegmentationStage::records(float phi_iso) {
  if (!records_current_ || records_.iso != phi_iso) {
    generate_cube_records(segmentation_->list(), records_, phi_iso, volume_.source.c_str());
    records_current_ = true;
  }
  return records_;
}

glm::vec3 SegmentationStage::record_origin() const { return voxel0() + glm::vec3(records_.origin) * box_.spacing; }

}  // namespace meniscus::sim::levelset
