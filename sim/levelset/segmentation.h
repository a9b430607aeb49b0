#pragma once
// Level-set segmentation of a scanned volume (Lefohn & Whitaker, seed 004): seed spheres on
// the Sorted Tile List grow under F = c0·G(I) + (1 − c0)·κ (threshold_speed.h) until the front
// rests on the thresholds' boundary, smoothed by curvature. Two backends behind one interface:
// the CPU evolves the SortedTileList (evolution.h), CUDA the GPU-STL (gpu_stl_evolution.h),
// the same equation as data on both. The thresholds and weights can change mid-run: the
// front goes on from where it is.
//
// The level set lives on its own isotropic grid (curvature wants equal steps on every axis),
// by default with voxels of the volume's smallest spacing; a scan with slices further apart
// than its pixels is sampled trilinearly between them.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/common/backend.h"
#include "sim/histopyramid/volume.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/seed_spheres.h"
#include "sim/levelset/sorted_tile_list.h"
#include "sim/levelset/threshold_speed.h"
#include "sim/levelset/upwind.h"

namespace meniscus::sim::levelset {

class GpuSortedTileList;

struct SegmentationParams {
  float lower = 0.0f, upper = 0.0f;  // I_lo < I_hi, in the volume's units
  float curvature = 0.2f;            // w = 1 − c0, in [0, 1)
  DataTerm term = DataTerm::kLinear;
  Scheme scheme = Scheme::kUpwind;  // first order, as ITK's sparse-field solver
  // First-order upwind in forward Euler is monotone up to ν = 1 on the effective speeds; the
  // data term's stiffness bounds the step too (threshold_speed.h), so the front comes to rest
  // on a sharp edge instead of rocking across it.
  float cfl = 0.9f;
};

// InputError naming `what` and the field: thresholds not finite or lower >= upper, a weight
// outside [0, 1), a CFL number outside (0, 1].
void check_segmentation_params(const SegmentationParams& params, const std::string& what);

// Level-set voxel v lies at world position volume.origin + (v − margin) · voxel_size; the
// margin leaves the band room around a structure that touches the volume's edge.
struct SegmentationGrid {
  float voxel_size = 1.0f;
  int margin = 2 * kTileSide;
  glm::ivec3 dims{0};  // level-set voxels spanning the volume (without the margin)

  glm::vec3 volume_index(const Volume& volume, glm::vec3 voxel) const {
    return (voxel - float(margin)) * voxel_size / volume.spacing;
  }
  glm::vec3 voxel_of_index(const Volume& volume, glm::vec3 index) const {
    return index * volume.spacing / voxel_size + float(margin);
  }
};

// voxel_size 0: the volume's smallest spacing. InputError naming the volume for an empty one,
// a spacing that is not positive, or a grid beyond the tile keys.
SegmentationGrid segmentation_grid(const Volume& volume, float voxel_size = 0.0f);

// The data term's field over `volume` (values in host memory) on `grid`.
ThresholdSpeed threshold_speed(const Volume& volume, const SegmentationGrid& grid, const SegmentationParams& params);

// The evolution both backends run (the CUDA one as data, its volume on the device): the data
// term read at each voxel's nearest front point, w as α, the rescaling term, the
// effective-velocity CFL condition.
EvolutionParams segmentation_evolution(const Volume& volume, const SegmentationGrid& grid,
                                       const SegmentationParams& params);

// The weight β of the rescaling-speed term that keeps φ a distance (evolution.h): the data
// term's largest speed inside the window, c0·(I_hi − I_lo)/2, so that it keeps pace with the
// front in the volume's intensity units.
float segmentation_rescaling_weight(const SegmentationParams& params);

struct SegmentationStep {
  float dt = 0.0f;
  // ITK's MaximumRMSError measure: the root mean square of φ's change over the voxels of the
  // front (|φ| <= ½ before the step: ITK's active layer), as it would be over the step ITK
  // takes there. ITK moves
  // only its front layer, by WaveDT = 1/6 over the front's fastest data speed; this band also
  // moves voxels up to γ away, over darker or brighter samples, and the CFL condition there
  // makes its steps several times shorter. The change is scaled by the ratio of the two steps,
  // so a tolerance stops both at the same stage of convergence.
  double rms_change = 0.0;
  size_t front_voxels = 0;  // how many voxels that measure counts (0: no front to judge by)
  float front_speed = 0.0f;  // the data term's fastest |c0·G| over them
  float front_curvature = 0.0f;  // and the curvature term's fastest |w κ|∇φ||
  TileStatus status;
};

class Segmentation {
 public:
  virtual ~Segmentation() = default;
  virtual SimBackend backend() const = 0;
  // One CFL-limited step and its tile management.
  virtual SegmentationStep step() = 0;
  // New thresholds, weights or data term mid-run: φ, the tile list, the time and the step
  // count carry on (InputError as check_segmentation_params).
  virtual void set_params(const SegmentationParams& params) = 0;
  // The level set on the host (CUDA: downloaded when it changed).
  virtual const SortedTileList& list() = 0;
  virtual size_t tiles() = 0;
  // Replaces the level set (a seed added, an undo); the step count and clock carry on. CUDA
  // uploads it: a user's action, not a frame's.
  virtual void replace_list(SortedTileList list) = 0;
  // The GPU-STL the CUDA backend evolves (records are written from it on the device); null on
  // the CPU.
  virtual GpuSortedTileList* device_list() { return nullptr; }

  // A seed sphere placed mid-run (seed_spheres.h add_sphere); the level set before it is kept
  // for undo_seed(), which puts it back (and with it the evolution since). False when there is
  // no seed to undo.
  void add_seed(const SeedSphere& seed, const std::string& what);
  bool undo_seed();
  size_t seeds_placed() const { return before_seed_.size(); }

  const SegmentationParams& params() const { return params_; }
  int steps() const { return steps_; }
  double time() const { return time_; }

 protected:
  SegmentationParams params_;
  int steps_ = 0;
  double time_ = 0.0;

 private:
  std::vector<SortedTileList> before_seed_;
};

// `volume` must outlive the segmentation (the CPU backend reads it in place; CUDA copies it to
// the device). `initial` is the level set to start from (seed_spheres.h, or a mask through
// volume_level_set.h) on `grid`. CUDA throws DeviceError when no device answers.
std::unique_ptr<Segmentation> make_segmentation(const Volume& volume, const SegmentationGrid& grid,
                                                SortedTileList initial, const SegmentationParams& params,
                                                SimBackend backend);

std::unique_ptr<Segmentation> make_segmentation_cpu(const Volume& volume, const SegmentationGrid& grid,
                                                    SortedTileList initial, const SegmentationParams& params);
std::unique_ptr<Segmentation> make_segmentation_cuda(const Volume& volume, const SegmentationGrid& grid,
                                                     SortedTileList initial, const SegmentationParams& params);

// When a run stops. The tile-age rule is the paper's §4.1 test (tile_ages.h): no tile was made
// or dropped while the front could have travelled `tile_age` voxels, more than a tile's side, so
// a front still moving, out or in, would have changed the band. Each step's status counts the
// tiles made and dropped on both backends without reading the list back. The travel is bounded
// by the front's fastest speeds, so a slow part of the front, outrun by a fast one that rocks in
// place, can be stopped early: a tolerance of several tile sides keeps that rare.
struct SegmentationStop {
  int max_steps = 10000;
  double rms = -1.0;       // ITK's MaximumRMSError on rms_change (negative: not used)
  double tile_age = -1.0;  // voxels of front travel with no tile made (negative: not used)
};

struct SegmentationRun {
  int steps = 0;  // taken by this run
  // Why it stopped, when not on max_steps or an empty band.
  enum class Converged { kNo, kRms, kTileAge } converged = Converged::kNo;
  double seconds = 0;
  double voxel_updates = 0;  // active voxels summed over the steps
  double travel_since_tile_change = 0;  // voxels the front could have moved since a step made or dropped a tile
  SegmentationStep last;
};

// Steps until a rule of `stop` holds or the front vanishes; `after_step` sees each step.
SegmentationRun run_segmentation(Segmentation& segmentation, const SegmentationStop& stop,
                                 const std::function<void(const SegmentationStep&)>& after_step = {});

// The scan resampled (trilinear) to cubic samples of its finest spacing, and a sample index of
// the scan in the resampled one. ITK's filter works on the image's own grid and ours on a cubic
// one; on a skull two samples thick that difference alone moves their overlap by several per
// cent, so a comparison runs both on this.
Volume resampled_cubic(const Volume& volume);
glm::vec3 resampled_cubic_index(const Volume& volume, glm::vec3 index);

// A seed sphere around sample `index` of `volume` with a radius in samples of its finest axis.
SeedSphere seed_at_sample(const Volume& volume, const SegmentationGrid& grid, glm::vec3 index, float radius);

// The step's rms_change from the front's sum of squared changes over `count` voxels, its
// fastest data speed |c0·G| and curvature speed |w κ|∇φ||, and the step dt.
double itk_rms_change(double squares, size_t count, float front_speed, float front_curvature, float dt);

// 1 where a sample of `volume` lies inside the level set (φ < 0 there, trilinear between the
// level set's voxels), else 0; x fastest, the volume's dims.
std::vector<uint8_t> inside_mask(const SortedTileList& list, const Volume& volume, const SegmentationGrid& grid);

}  // namespace meniscus::sim::levelset
