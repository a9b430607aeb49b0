// The segmentation on the CPU: LevelSetEvolution over the SortedTileList with the data term as
// its normal speed, the curvature weight as its α and the rescaling-speed term keeping φ a
// distance (ITK's sparse field rebuilds its layers for the same reason).
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "sim/levelset/evolution.h"
#include "sim/levelset/segmentation.h"

namespace meniscus::sim::levelset {
namespace {

class CpuSegmentation final : public Segmentation {
 public:
  CpuSegmentation(const Volume& volume, const SegmentationGrid& grid, SortedTileList initial,
                  const SegmentationParams& params)
      : volume_(volume), grid_(grid), list_(std::move(initial)) {
    set_params(params);
  }

  SimBackend backend() const override { return SimBackend::Cpu; }
  const SortedTileList& list() override { return list_; }
  size_t tiles() override { return list_.size(); }
  void replace_list(SortedTileList list) override { list_ = std::move(list); }

  void set_params(const SegmentationParams& params) override {
    check_segmentation_params(params, volume_.source);
    params_ = params;
    evolution_.emplace(segmentation_evolution(volume_, grid_, params));
  }

  SegmentationStep step() override {
    SegmentationStep out;
    if (list_.size() == 0) return out;
    snapshot_front();
    out.dt = evolution_->step(list_, float(time_));
    out.status = evolution_->last_status();
    front_rms_change(out);
    time_ += out.dt;
    ++steps_;
    return out;
  }

 private:
  // The front's values before the step, by tile id: tile slots keep their values through the
  // management (a removed tile held no front voxel, and freed slots are reused only later).
  void snapshot_front() {
    const auto& active = list_.active();
    ids_.resize(active.size());
    before_.resize(active.size() * kTileVoxels);
    tbb::parallel_for(size_t(0), active.size(), [&](size_t i) {
      ids_[i] = active[i].id;
      list_.read(active[i].id, before_.data() + i * kTileVoxels);
    });
  }

  void front_rms_change(SegmentationStep& out) const {
    struct Sum {
      double squares = 0;
      size_t count = 0;
    };
    std::vector<Sum> sums(ids_.size());
    tbb::parallel_for(size_t(0), ids_.size(), [&](size_t i) {
      const float* old = before_.data() + i * kTileVoxels;
      float now[kTileVoxels];
      list_.read(ids_[i], now);
      for (int v = 0; v < kTileVoxels; ++v)
        if (std::abs(old[v]) <= 0.5f) {
          const double d = double(now[v]) - old[v];
          sums[i].squares += d * d;
          ++sums[i].count;

        }
    });
    Sum total;
    for (const Sum& s : sums) {
      total.squares += s.squares;
      total.count += s.count;
    }
    out.front_voxels = total.count;
    out.front_speed = evolution_->front_speed();
    out.front_curvature = evolution_->front_curvature_speed();
    out.rms_change = itk_rms_change(total.squares, total.count, out.front_speed, out.front_curvature, out.dt);
  }

  const Volume& volume_;
  SegmentationGrid grid_;
  SortedTileList list_;
  std::optional<LevelSetEvolution> evolution_;
  std::vector<uint32_t> ids_;
  std::vector<float> before_;
};

}  // namespace

std::unique_ptr<Segmentation> make_segmentation_cpu(const Volume& volume, const SegmentationGrid& grid,
                                                    SortedTileList initial, const SegmentationParams& params) {
  return std::make_unique<CpuSegmentation>(volume, grid, std::move(initial), params);
}

}  // namespace meniscus::sim::levelset
