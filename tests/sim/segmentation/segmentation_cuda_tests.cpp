// The CUDA segmentation against the CPU's (sim/levelset/segmentation.h): the same volume, seed
// and thresholds, step by step; the lists must agree entry by entry with values within
// kTolerance, the steps' dt and front measures alike, through a threshold change mid-run and a
// seed placed and undone, and the masks must be equal. Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why
// when no CUDA device answers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "engine/core/data_files.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/gpu_stl_list.h"
#include "sim/levelset/segmentation.h"
#include "tests/sim/segmentation/segmentation_test_volumes.h"
#include "tests/support/device_checks.h"

namespace meniscus::sim::levelset {
namespace {

using device_test::check;

// Both backends round alike (no fused multiply-adds) but for tanh, whose device and host
// versions may differ in the last bits; a few ulps of φ.
constexpr float kTolerance = 1e-4f;

std::string differences(const SortedTileList& cpu, const SortedTileList& gpu) {
  if (cpu.size() != gpu.size()) return "active tiles " + std::to_string(cpu.size()) + " vs " + std::to_string(gpu.size());
  float worst = 0;
  for (size_t i = 0; i < cpu.size(); ++i) {
    const TileEntry a = cpu.active()[i], b = gpu.active()[i];
    if (a.key != b.key || a.id != b.id) return "entry " + std::to_string(i) + " differs";
    for (int v = 0; v < kTileVoxels; ++v) worst = std::max(worst, std::abs(cpu.value(a.id, v) - gpu.value(b.id, v)));
  }
  if (!(worst <= kTolerance)) return "values differ by " + std::to_string(worst);
  return {};
}

std::unique_ptr<Segmentation> seeded(const Volume& v, const SegmentationGrid& grid, const SegmentationParams& p,
                                     SimBackend backend) {
  SortedTileList list(1.5f);
  const SeedSphere seed = seed_at_sample(v, grid, glm::vec3(12.0f), 3.0f);
  build_from_spheres(list, std::span(&seed, 1), "seed");
  return make_segmentation(v, grid, std::move(list), p, backend);
}

// `steps` steps on both, compared after each; false at the first difference.
bool lockstep(Segmentation& cpu, Segmentation& gpu, int steps, const std::string& what) {
  for (int k = 0; k < steps; ++k) {
    const SegmentationStep a = cpu.step(), b = gpu.step();
    const std::string diff = differences(cpu.list(), gpu.list());
    const bool same_step = a.dt == b.dt && a.front_voxels == b.front_voxels &&
                           std::abs(a.rms_change - b.rms_change) <= 1e-6 * std::max(1.0, a.rms_change) &&
                           a.status.added == b.status.added && a.status.removed == b.status.removed;
    if (!diff.empty() || !same_step) {
      check(false, what + ", step " + std::to_string(k + 1) + ": " + (diff.empty() ? "dt, front or status differ" : diff) +
                       " (dt " + std::to_string(a.dt) + " vs " + std::to_string(b.dt) + ", rms " +
                       std::to_string(a.rms_change) + " vs " + std::to_string(b.rms_change) + ")");
      return false;
    }
  }
  check(true, what + ": " + std::to_string(steps) + " steps alike, " + std::to_string(cpu.list().size()) + " tiles");
  return true;
}

int run() {
  std::string why;
  if (!gpu_stl_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  // An inner ball (100) in a shell (200), slices twice as far apart as the pixels.
  const Volume v = testing::shells_volume({24, 24, 12}, {1.0f, 1.0f, 2.0f}, glm::vec3(12.0f), {{5.0f, 100.0f}, {9.0f, 200.0f}});
  const SegmentationGrid grid = segmentation_grid(v);
  SegmentationParams p;
  p.lower = 50.0f;
  p.upper = 150.0f;
  p.curvature = 0.2f;
  auto cpu = seeded(v, grid, p, SimBackend::Cpu);
  auto gpu = seeded(v, grid, p, SimBackend::Cuda);
  check(gpu->backend() == SimBackend::Cuda, "the CUDA backend runs");
  if (lockstep(*cpu, *gpu, 40, "inner ball")) {
    p.upper = 250.0f;
    p.term = DataTerm::kTanh;
    cpu->set_params(p);
    gpu->set_params(p);
    if (lockstep(*cpu, *gpu, 40, "after raising the upper threshold (tanh)")) {
      check(cpu->steps() == 80 && gpu->steps() == 80, "the step count carries on over the change");
      check(inside_mask(cpu->list(), v, grid) == inside_mask(gpu->list(), v, grid), "the masks are equal");
      check(gpu->list().check_invariants().empty(), "the CUDA list passes the CPU's invariants");
      // A seed placed mid-run (the list goes up to the device again), then taken back.
      const SeedSphere seed = seed_at_sample(v, grid, {4.0f, 4.0f, 2.0f}, 2.0f);
      cpu->add_seed(seed, "seed");
      gpu->add_seed(seed, "seed");
      if (lockstep(*cpu, *gpu, 10, "after a seed placed mid-run")) {
        cpu->undo_seed();
        gpu->undo_seed();
        check(differences(cpu->list(), gpu->list()).empty() && gpu->seeds_placed() == 0, "undo puts back the same list");
        lockstep(*cpu, *gpu, 5, "after the undo");
      }
    }
  }
  return device_test::summary();
}

double dice(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t both = 0, sum = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    both += a[i] & b[i];
    sum += a[i] + b[i];
  }
  return sum ? 2.0 * double(both) / double(sum) : 1.0;
}

struct RealScan {
  std::string name, path;
  bool cubic;  // resampled to cubic samples first, as meniscus-bench segment --isotropic
  std::vector<glm::vec4> seeds;  // sample indices of the scan as stored, radius in samples
  float lower, upper;
  double rms;
};

// The cases of meniscus-bench segment on real scans, each run on both backends to ITK's
// tolerance and the masks compared; with MENISCUS_ITK_MASKS naming a folder of ITK's masks
// (meniscus-bench segment --masks, as <case>.nrrd), each backend's Dice against ITK too. It
// takes minutes on the CPU execution layer, so it runs on request (--real-data), not in ctest.
int run_real_data() {
  std::string why;
  if (!gpu_stl_available(&why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  // The data folders first (tools/gpu-check.sh bundles the brain there), then mricron-data.
  const auto found = [](const std::string& relative) {
    try {
      return find_data_file(relative);
    } catch (const std::exception&) {
      return std::filesystem::path();
    }
  };
  std::filesystem::path brain = found("mricron/ch2.nii.gz");
  if (brain.empty()) brain = "/usr/share/mricron/templates/ch2.nii.gz";
  const std::filesystem::path head = found("vtk-data/headsq/quarter.nhdr");
  if (!std::filesystem::exists(brain) || head.empty() || !std::filesystem::exists(head)) {
    std::printf("SKIPPED: the real scans are not here (mricron/ch2.nii.gz, vtk-data/headsq/quarter.nhdr)\n");
    return MENISCUS_SKIP_CODE;
  }
  const std::vector<RealScan> scans = {
      {"ch2_white_matter", brain.string(), false, {{110, 108, 100, 3}}, 95, 140, 0.005},
      {"ct_head_bone", head.string(), true, {{43, 45, 27, 2}, {28, 8, 20, 2}, {24, 14, 46, 2}, {27, 12, 70, 2}}, 1150, 4000, 0.003},
  };
  const char* itk_masks = std::getenv("MENISCUS_ITK_MASKS");
  for (const RealScan& scan : scans) {
    const Volume stored = load_volume(scan.path);
    const Volume v = scan.cubic ? resampled_cubic(stored) : stored;
    const SegmentationGrid grid = segmentation_grid(v);
    SegmentationParams p;
    p.lower = scan.lower;
    p.upper = scan.upper;
    std::vector<SeedSphere> seeds;
    for (const glm::vec4& s : scan.seeds)
      seeds.push_back(seed_at_sample(v, grid, scan.cubic ? resampled_cubic_index(stored, glm::vec3(s)) : glm::vec3(s), s.w));
    SegmentationStop stop;
    stop.max_steps = 5000;
    stop.rms = scan.rms;
    std::vector<uint8_t> masks[2];
    for (const SimBackend backend : {SimBackend::Cpu, SimBackend::Cuda}) {
      SortedTileList list(1.5f);
      build_from_spheres(list, seeds, scan.path);
      auto segmentation = make_segmentation(v, grid, std::move(list), p, backend);
      const SegmentationRun run = run_segmentation(*segmentation, stop);
      check(run.converged == SegmentationRun::Converged::kRms,
            scan.name + " " + backend_name(backend) + ": converged to the tolerance");
      std::vector<uint8_t>& mask = masks[backend == SimBackend::Cuda];
      mask = inside_mask(segmentation->list(), v, grid);
      std::printf("%s %s: %d steps, converged %s, %.1f s, %zu samples inside\n", scan.name.c_str(), backend_name(backend),
                  run.steps, run.converged == SegmentationRun::Converged::kRms ? "yes" : "no", run.seconds,
                  size_t(std::count(mask.begin(), mask.end(), uint8_t(1))));
      if (itk_masks) {
        const Volume itk = load_volume((std::filesystem::path(itk_masks) / (scan.name + ".nrrd")).string());
        std::vector<uint8_t> itk_inside;
        for (const float value : itk.values) itk_inside.push_back(value > 0 ? 1 : 0);
        check(itk_inside.size() == mask.size(), scan.name + ": ITK's mask on the same grid");
        if (itk_inside.size() == mask.size())
          std::printf("%s %s: Dice against ITK %.4f\n", scan.name.c_str(), backend_name(backend), dice(mask, itk_inside));
      }
    }
    const double agreement = dice(masks[0], masks[1]);
    std::printf("%s: Dice CUDA vs CPU %.6f\n", scan.name.c_str(), agreement);
    check(agreement >= 0.999, scan.name + ": the CUDA mask is the CPU's (Dice >= 0.999)");
  }
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus::sim::levelset

int main(int argc, char** argv) {
  const bool real_data = argc > 1 && std::string_view(argv[1]) == "--real-data";
  return meniscus::device_test::run_main(real_data ? meniscus::sim::levelset::run_real_data : meniscus::sim::levelset::run);
}
