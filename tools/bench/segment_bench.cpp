// meniscus-bench segment: Lefohn & Whitaker's threshold segmentation on the sparse level set
// (sim/levelset/segmentation.h) against ITK 5.2's ThresholdSegmentationLevelSetImageFilter
// (serial) and ParallelSparseFieldLevelSetImageFilter with the same function, in one run: the
// same volume, seeds, thresholds and weights, each to the same RMS tolerance. One line per
// implementation: time to convergence, steps, voxel updates per second, and the overlap
// (Dice, Jaccard) with ITK's serial result and with a reference mask when one is given.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/core/data_files.h"
#include "engine/core/error.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/segmentation.h"
#include "tools/bench/bench_setup.h"
#include "tools/bench/itk_segment.h"

namespace meniscus::bench {
namespace segment_bench {
namespace {

struct Options {
  std::string volume = "/usr/share/mricron/templates/ch2.nii.gz";
  std::vector<glm::vec4> seeds;  // sample indices, radius in samples
  float lower = 0, upper = 0;
  bool thresholds = false;
  float curvature = 0.2f;
  float cfl = sim::levelset::SegmentationParams{}.cfl;  // ours only: ITK takes its own step
  double rms = 0.02;
  int max_steps = 5000;
  int threads = 2;
  std::string reference;  // a volume whose samples > 0 are the reference's inside
  std::vector<std::string> itk = {"serial", "parallel"};
  std::string sim = "cpu";
  std::string masks;  // a folder: each implementation's mask as <impl>.nrrd, to look at
  bool isotropic = false;  // both on cubic samples (sim::levelset::resampled_cubic)
};

glm::vec4 parse_seed(const std::string& text) {
  const std::vector<std::string> parts = split_list(text);
  if (parts.size() != 4) throw InputError("--seed: expected i,j,k,r, got '" + text + "'");
  glm::vec4 s;
  try {
    for (int i = 0; i < 4; ++i) s[i] = float(parse_number("--seed", parts[size_t(i)], -1e9, 1e9));
  } catch (const InputError&) {
    throw InputError("--seed: expected four numbers i,j,k,r, got '" + text + "'");  // the whole seed's form
  }
  return s;
}

Options parse(int argc, char** argv) {
  Options o;
  for (BenchFlags flags(argc, argv); flags.next();) {
    const std::string f = flags.flag();
    if (f == "--volume") o.volume = flags.value();
    else if (f == "--seed") o.seeds.push_back(parse_seed(flags.value()));
    else if (f == "--lower")
      o.lower = float(flags.number(-1e9, 1e9, "an intensity")), o.thresholds = true;
    else if (f == "--upper")
      o.upper = float(flags.number(-1e9, 1e9, "an intensity"));
    else if (f == "--curvature")
      o.curvature = float(flags.number(0, 10, "the curvature weight"));
    else if (f == "--rms")
      o.rms = flags.number(0, 1e6, "voxels");
    else if (f == "--cfl")
      o.cfl = float(flags.number(0.001, 1));
    else if (f == "--max-steps")
      o.max_steps = flags.integer(1, 10'000'000);
    else if (f == "--threads")
      o.threads = flags.integer(1, 1024);
    else if (f == "--reference") o.reference = flags.value();
    else if (f == "--itk") {
      const std::string which = flags.value();
      o.itk = which == "none" ? std::vector<std::string>{} : split_list(which);
    }
    else if (f == "--sim") o.sim = flags.value();
    else if (f == "--masks") o.masks = flags.value();
    else if (f == "--isotropic") o.isotropic = true;
    else throw InputError("segment: unknown flag '" + f + "'");
  }
  if (!o.thresholds || o.seeds.empty()) throw InputError("segment: --seed i,j,k,r... --lower L --upper U are required");
  return o;
}

struct Overlap {
  double dice = 0, jaccard = 0;
};

Overlap overlap(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  uint64_t both = 0, na = 0, nb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    both += a[i] && b[i];
    na += a[i];
    nb += b[i];
  }
  const uint64_t either = na + nb - both;
  return {na + nb ? 2.0 * double(both) / double(na + nb) : 1.0, either ? double(both) / double(either) : 1.0};
}

// The seeds' signed distance on the volume's grid in samples of its finest axis (ITK's input).
std::vector<float> initial_phi(const sim::Volume& volume, const std::vector<glm::vec4>& seeds) {
  const float finest = std::min({volume.spacing.x, volume.spacing.y, volume.spacing.z});
  std::vector<float> phi(volume.values.size());
  for (uint32_t z = 0; z < volume.dims.z; ++z)
    for (uint32_t y = 0; y < volume.dims.y; ++y)
      for (uint32_t x = 0; x < volume.dims.x; ++x) {
        float d = 1e30f;
        for (const glm::vec4& s : seeds)
          d = std::min(d, glm::length((glm::vec3(x, y, z) - glm::vec3(s)) * volume.spacing) / finest - s.w);
        phi[volume.index(x, y, z)] = d;
      }
  return phi;
}

void begin(profile::JsonWriter& json, const Options& o, const sim::Volume& volume, const std::string& impl) {
  json.begin_object();
  json.key("bench").value("segment");
  json.key("volume").value(o.volume);
  json.key("isotropic").value(o.isotropic ? "resampled" : "as stored");
  json.key("dims").value(std::to_string(volume.dims.x) + "x" + std::to_string(volume.dims.y) + "x" + std::to_string(volume.dims.z));
  json.key("lower").value(double(o.lower));
  json.key("upper").value(double(o.upper));
  json.key("curvature").value(double(o.curvature));
  json.key("rms").value(o.rms);
  json.key("threads").value(uint64_t(o.threads));
  json.key("impl").value(impl);
  if (impl.starts_with("meniscus")) json.key("cfl").value(double(o.cfl));
}

void save_mask(const Options& o, const sim::Volume& volume, const std::string& impl, const std::vector<uint8_t>& mask) {
  if (!o.masks.empty()) sim::write_nrrd_mask(std::filesystem::path(o.masks) / (impl + ".nrrd"), volume, mask);
}

void add_overlaps(profile::JsonWriter& json, const std::vector<uint8_t>& mask, const std::vector<uint8_t>* itk,
                  const std::vector<uint8_t>* reference) {
  json.key("inside").value(uint64_t(std::count(mask.begin(), mask.end(), uint8_t(1))));
  if (itk) {
    const Overlap v = overlap(mask, *itk);
    json.key("dice_vs_itk").value(v.dice);
    json.key("jaccard_vs_itk").value(v.jaccard);
  }
  if (reference) json.key("dice_vs_reference").value(overlap(mask, *reference).dice);
}

}  // namespace
}  // namespace segment_bench

int run_segment(int argc, char** argv) {
  using namespace segment_bench;  // this file's helpers
  Options o = parse(argc, argv);
  const auto environment = benchmark_environment(o.threads);
  // data:<path> as the scenes name data (engine/core/data_files.h): the GPU machine's bundle
  // carries the MR brains under its data folder.
  const std::string path = o.volume.starts_with("data:") ? find_data_file(o.volume.substr(5)).string() : o.volume;
  const sim::Volume loaded = sim::load_volume(path);
  const sim::Volume volume = o.isotropic ? sim::levelset::resampled_cubic(loaded) : loaded;
  if (o.isotropic)
    for (glm::vec4& s : o.seeds) s = glm::vec4(sim::levelset::resampled_cubic_index(loaded, glm::vec3(s)), s.w);
  std::vector<uint8_t> reference;
  if (!o.reference.empty()) {
    const sim::Volume r = sim::load_volume(o.reference);
    if (r.dims != volume.dims) throw InputError(o.reference + ": not on the grid of " + o.volume + " (as benchmarked)");
    for (const float v : r.values) reference.push_back(v > 0 ? 1 : 0);
  }
  const std::vector<uint8_t>* reference_mask = reference.empty() ? nullptr : &reference;

  // ITK first: its serial result is what ours is compared with.
  std::vector<ItkSegmentRun> itk_runs;
  const std::vector<float> phi = initial_phi(volume, o.seeds);
  for (const std::string& kind : o.itk) {
    ItkSegmentInput in{volume.values.data(), phi.data(), {volume.dims.x, volume.dims.y, volume.dims.z},
                       {volume.spacing.x, volume.spacing.y, volume.spacing.z}, o.lower, o.upper, o.curvature, o.rms,
                       o.max_steps, kind == "serial" ? 1 : o.threads};
    ItkSegmentRun run;
    if (!run_itk_segment(in, run)) {
      std::fprintf(stderr, "segment: ITK %s: %s\n", kind.c_str(), run.error.c_str());
      continue;
    }
    profile::JsonWriter json;
    begin(json, o, volume, "itk_" + kind);
    json.key("peer").value(std::string("ITK ") + itk_version() + " " + run.filter);
    json.key("itk_threads").value(uint64_t(in.threads));
    json.key("seconds").value(run.seconds);
    json.key("steps").value(uint64_t(run.iterations));
    json.key("last_rms").value(run.rms);
    add_overlaps(json, run.mask, itk_runs.empty() ? nullptr : &itk_runs.front().mask, reference_mask);
    json.end_object();
    print_line(json);
    save_mask(o, volume, "itk_" + kind, run.mask);
    itk_runs.push_back(std::move(run));
  }

  const sim::levelset::SegmentationGrid grid = sim::levelset::segmentation_grid(volume);
  sim::levelset::SegmentationParams params;
  params.lower = o.lower;
  params.upper = o.upper;
  params.curvature = o.curvature;
  params.cfl = o.cfl;
  std::vector<sim::levelset::SeedSphere> spheres;
  for (const glm::vec4& s : o.seeds) spheres.push_back(sim::levelset::seed_at_sample(volume, grid, glm::vec3(s), s.w));
  sim::levelset::SortedTileList initial(1.5f);
  sim::levelset::build_from_spheres(initial, spheres, o.volume);
  const auto backend = o.sim == "cuda" ? sim::SimBackend::Cuda : sim::SimBackend::Cpu;
  auto segmentation = sim::levelset::make_segmentation(volume, grid, std::move(initial), params, backend);
  sim::levelset::SegmentationStop stop;
  stop.max_steps = o.max_steps;
  stop.rms = o.rms;
  const sim::levelset::SegmentationRun run = sim::levelset::run_segmentation(*segmentation, stop);
  const std::vector<uint8_t> mask = sim::levelset::inside_mask(segmentation->list(), volume, grid);

  profile::JsonWriter json;
  begin(json, o, volume, std::string("meniscus_") + sim::backend_name(backend));
  json.key("seconds").value(run.seconds);
  json.key("steps").value(uint64_t(run.steps));
  json.key("converged").value(run.converged != sim::levelset::SegmentationRun::Converged::kNo ? "yes" : "no");
  json.key("last_rms").value(run.last.rms_change);
  json.key("voxel_updates_per_s").value(run.seconds > 0 ? run.voxel_updates / run.seconds : 0.0);
  add_overlaps(json, mask, itk_runs.empty() ? nullptr : &itk_runs.front().mask, reference_mask);
  for (const ItkSegmentRun& r : itk_runs)
    json.key(r.filter == "ThresholdSegmentationLevelSetImageFilter" ? "speedup_vs_itk_serial" : "speedup_vs_itk_parallel")
        .value(run.seconds > 0 ? r.seconds / run.seconds : 0.0);
  json.end_object();
  print_line(json);
  save_mask(o, volume, std::string("meniscus_") + sim::backend_name(backend), mask);
  return 0;
}

}  // namespace meniscus::bench
