#pragma once
// The level-set stage ([[stage]] type = "levelset"): a sparse level set on the Sorted Tile List
// made from a closed mesh (scan-converted), a point cloud (reconstructed, sim/reconstruct),
// Enright's sphere in his deformation field, or — every frame — another stage's particles;
// then zero or more evolution steps per frame (normal speed F, mean-curvature flow α). It is
// drawn from the cube records of the frame (Jalba et al. 2013 §3.4): one 15-byte record per
// crossed cell is all that reaches the surface pass. For Lucy at resolution 128 that is 22,620
// records, 0.34 MB, against 3.2 MB for the dense float volume of its 92 x 60 x 145 box (the
// ratio grows with resolution, as the surface is 2D and the box 3D).
//
// Two backends behind one interface, picked once by make_levelset_stage: the CPU evolves the
// SortedTileList, CUDA the GPU-STL (gpu_stl_evolution.h).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "sim/common/stage.h"
#include "sim/histopyramid/cube_record_buffer.h"
#include "sim/histopyramid/cube_record.h"
#include "sim/histopyramid/volume.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim::levelset {

// A sculpting brush as the user holds it (brush.h), in the box's units: its centre, its reach
// (3σ, where Eq. 7.5 cuts the Gaussian off) and f0, voxels per unit time (negative removes).
struct Brush {
  glm::vec3 at{0.0f};
  float radius = 0.0f;
  float strength = 0.0f;
};

// A brush held still for `frames` frames from `first_frame` on: scripted sculpting, for scenes
// and goldens that must come out the same every run.
struct BrushStroke {
  Brush brush;
  int first_frame = 0;
  int frames = 1;
};

struct LevelSetStageParams {
  // Where the level set comes from: exactly one of these.
  std::filesystem::path mesh;    // a closed .ply or .obj
  std::filesystem::path points;  // a point cloud (.ply/.obj vertices) to reconstruct
  int enright = 0;               // > 0: Enright's test at this many voxels per side
  bool particles = false;        // another stage's particles, rebuilt every frame (consume())

  int start_depth = 5;  // points: coarsest and finest reconstruction levels
  int depth = 7;
  int resolution = 128;  // mesh: voxels along its longest side
  int margin = 8;        // mesh: voxels of room around it

  // particles: the producer's domain (the voxel grid covers it, plus a margin), the voxel size
  // and the particles' radius (metres), Zhu & Bridson's kernel radius R in particle spacings.
  // mcf and steps_per_frame then smooth each rebuild by mean-curvature flow.
  float voxel_size = 0.01f;
  glm::vec3 grid_min{0.0f}, grid_max{1.0f};
  float particle_radius = 0.005f;
  float kernel_radius = 2.0f;

  float mcf = 1.0f;    // α, voxels² per unit time
  float speed = 0.0f;  // F, voxels per unit time (positive grows)
  std::string scheme = "upwind";
  TilePrecision precision = TilePrecision::kFloat32;  // the tiles' storage (sorted_tile_list.h)
  int steps_per_frame = 1;
  std::vector<BrushStroke> strokes;  // applied in the frames they name (frames that step)
};

// The evolution of `meniscus levelset` and the stage: scheme "upwind" | "weno5", curvature
// weight α, constant normal speed F, with the rescaling-speed term keeping φ a distance.
EvolutionParams evolution_params(const std::string& scheme, float mcf, float speed);

class LevelSetStage : public Stage {
 public:
  StageOutput output() const override { return StageOutput::LevelSet; }
  std::string summary() const override;

  // The box the level set is drawn in, in world units: placement only (dims, origin, spacing;
  // no values).
  virtual const Volume& box() const = 0;
  // Publishes the frame's cube records of φ = phi_iso (|phi_iso| < γ) into `target`, in the
  // layout of sim/histopyramid/cube_record_buffer.h with room for `capacity` records: the CPU
  // backend writes host memory and returns the records needed (the caller grows the buffer and
  // writes again when they did not fit); CUDA writes on the device with no read-back, returns
  // nothing, and the submission reading `target` waits for gpu_wait(). The caller guarantees
  // that no GPU work still reads `target` (its frame slot's fence has passed).
  virtual std::optional<uint32_t> write_records(SharedBuffer& target, uint32_t capacity, float phi_iso) = 0;
  virtual std::optional<GpuWait> gpu_wait() const { return std::nullopt; }
  // Where voxel (0, 0, 0) of the level set's grid lies, in box units: a record at position p of
  // a buffer whose header holds origin o lies at voxel0() + voxel_size() * (o + p).
  virtual glm::vec3 voxel0() const = 0;
  float voxel_size() const { return box().spacing.x; }

  // The current cube records on the host (for exports and tests, not the frame's hot path: the
  // CUDA backend downloads its list for them). Record position p lies at record_origin() +
  // voxel_size() * p, in box units.
  virtual const CubeRecordSet& records(float phi_iso) = 0;
  // The level set itself on the host, for a .vdb export (CUDA downloads it). Voxel v lies at
  // voxel0() + voxel_size() * v, in box units.
  virtual const SortedTileList& host_level_set() = 0;
  virtual glm::vec3 record_origin() const = 0;
  virtual float gamma() const = 0;
  virtual size_t tiles() const = 0;
  virtual double time() const = 0;

  // The interactive brush for the frames from now on (nullopt: released); a scripted stroke's
  // brush takes over in its frames. Not for a level set rebuilt from particles every frame.
  virtual void set_brush(const std::optional<Brush>& brush) = 0;
};

// Builds the initial level set (InputError naming the file for a bad mesh or cloud) on
// `backend`; CUDA throws DeviceError when no device answers. `context` is the Vulkan device the
// CUDA backend's timeline is shared with.
std::unique_ptr<LevelSetStage> make_levelset_stage(const LevelSetStageParams& params, SimBackend backend,
                                                   const Context& context);

}  // namespace meniscus::sim::levelset
