// The segmentation on CUDA: the GPU-STL evolved by GpuLevelSetEvolution with the data term as
// data (threshold_speed.h) over a copy of the volume in device memory. One host wait a step:
// the counters that bring dt, the management's status and the front's change together.
#include <bit>
#include <cmath>
#include <optional>

#include "sim/common/cuda_support.cuh"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/gpu_stl_params.h"
#include "sim/levelset/segmentation.h"

namespace meniscus::sim::levelset {
namespace {

class CudaSegmentation final : public Segmentation {
 public:
  CudaSegmentation(const Volume& volume, const SegmentationGrid& grid, SortedTileList initial,
                   const SegmentationParams& params)
      : volume_(volume), grid_(grid), host_(std::move(initial)), gpu_list_(std::make_unique<GpuSortedTileList>(host_)) {
    samples_.reserve(volume.values.size(), "the segmented volume");
    MENISCUS_SIM_CUDA_CHECK(cudaMemcpy(samples_.get(), volume.values.data(), sizeof(float) * volume.values.size(),
                                       cudaMemcpyHostToDevice));
    set_params(params);
  }

  SimBackend backend() const override { return SimBackend::Cuda; }
  size_t tiles() override { return gpu_list_->size(); }
  GpuSortedTileList* device_list() override { return gpu_list_.get(); }
  void replace_list(SortedTileList list) override {
    gpu_list_ = std::make_unique<GpuSortedTileList>(list);
    host_ = std::move(list);
    host_stale_ = false;
  }

  void set_params(const SegmentationParams& params) override {
    check_segmentation_params(params, volume_.source);
    params_ = params;
    const EvolutionParams cpu = segmentation_evolution(volume_, grid_, params);
    GpuEvolutionParams g = from_cpu_params(cpu, 0.0f);
    g.threshold = cpu.threshold;
    g.threshold.volume = samples_.get();  // the same samples, on the device
    evolution_.emplace(g);
  }

  SegmentationStep step() override {
    SegmentationStep out;
    if (tiles() == 0) return out;
    out.dt = evolution_->step(*gpu_list_, float(time_));
    const GpuStlCounters& c = evolution_->last_counters();
    out.status = c.status;
    out.front_voxels = c.front_voxels;
    out.front_speed = std::bit_cast<float>(c.front_speed_bits);
    out.front_curvature = std::bit_cast<float>(c.front_curvature_bits);
    out.rms_change = itk_rms_change(c.front_squares, c.front_voxels, out.front_speed, out.front_curvature, out.dt);
    time_ += out.dt;
    ++steps_;
    host_stale_ = true;
    return out;
  }

  const SortedTileList& list() override {
    if (host_stale_) host_ = gpu_list_->download();
    host_stale_ = false;
    return host_;
  }

 private:
  const Volume& volume_;
  SegmentationGrid grid_;
  SortedTileList host_;
  std::unique_ptr<GpuSortedTileList> gpu_list_;
  DeviceArray<float> samples_;
  std::optional<GpuLevelSetEvolution> evolution_;
  bool host_stale_ = false;
};

}  // namespace

std::unique_ptr<Segmentation> make_segmentation_cuda(const Volume& volume, const SegmentationGrid& grid,
                                                     SortedTileList initial, const SegmentationParams& params) {
  if (std::string why; !gpu_stl_available(&why)) throw DeviceError("segmentation --sim cuda: " + why + "; use --sim cpu");
  return std::make_unique<CudaSegmentation>(volume, grid, std::move(initial), params);
}

}  // namespace meniscus::sim::levelset
