#pragma once
// A level set in a scene ([[stage]] type = "levelset"), from a closed mesh scan-converted into
// a sorted tile list, a point cloud reconstructed (sim/reconstruct) or Enright's sphere in his
// deformation field (sim/levelset/velocity_field.h, period 3), then zero or more
// evolution steps per frame (normal speed F, mean-curvature flow α), drawn by the surface pass
// ([pass.surface] volume = "stage:levelset") from the cube records of the frame (Jalba et al.
// 2013 §3.4): one 15-byte record per crossed cell is all that is uploaded. For Lucy at
// resolution 128 that is 22,620 records, 0.34 MB, against 3.2 MB for the dense float volume of
// the 92 x 60 x 145 box that the stage re-sampled and uploaded every frame before: 9.4x less
// (the ratio grows with resolution, as the surface is 2D and the box 3D).
#include <filesystem>
#include <memory>
#include <string>

#include "engine/app/param_table.h"
#include "engine/app/scene.h"
#include "sim/common/backend.h"
#include "sim/histopyramid/cube_record.h"
#include "sim/histopyramid/volume.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/gpu_stl_evolution.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus {

struct LevelSetStageSettings {
  std::filesystem::path mesh;    // a closed .ply or .obj; or
  std::filesystem::path points;  // a point cloud (.ply/.obj vertices) to reconstruct; or
  int enright = 0;               // > 0: Enright's test at this many voxels per side
  int start_depth = 5;           // points: coarsest and finest reconstruction levels
  int depth = 7;
  int resolution = 128;        // voxels along the mesh's longest side
  int margin = 8;              // voxels of room around it
  float mcf = 1.0f;            // α, voxels² per unit time
  float speed = 0.0f;          // F, voxels per unit time (positive grows)
  std::string scheme = "upwind";
  int steps_per_frame = 1;
};

// The evolution of `meniscus levelset` and the stage: scheme "upwind" | "weno5", curvature
// weight α, constant normal speed F, with the rescaling-speed term keeping φ a distance.
sim::levelset::EvolutionParams evolution_params(const std::string& scheme, float mcf, float speed);

// Reads and checks the table (InputError naming the file and field).
LevelSetStageSettings read_levelset_settings(const ParamTable& table, const Scene& scene);

class LevelSetStage {
 public:
  // `backend` Cuda evolves on the GPU-STL (sim/levelset/gpu_stl_evolution.h) and brings the
  // list back once per frame that moved, for the cube records.
  LevelSetStage(const LevelSetStageSettings& settings, sim::SimBackend backend);

  // steps_per_frame evolution steps (none once the surface has vanished); false when nothing
  // moved.
  bool step();
  // The box the level set is drawn in, in the mesh's world units: placement only (dims,
  // origin, spacing; no values).
  const sim::Volume& box() const { return box_; }
  // The current frame's cube records of the surface φ = phi_iso (|phi_iso| < γ), regenerated
  // only after a step or for another iso value.
  const sim::CubeRecordSet& records(float phi_iso);
  // Record position p of records() lies at record_origin() + voxel_size() * p, in box units.
  glm::vec3 record_origin() const;
  float voxel_size() const { return box_.spacing.x; }
  float gamma() const { return list_->gamma(); }
  size_t tiles() const { return list_->size(); }
  double time() const { return time_; }

 private:
  LevelSetStageSettings settings_;
  std::unique_ptr<sim::levelset::SortedTileList> list_;
  std::unique_ptr<sim::levelset::LevelSetEvolution> evolution_;       // CPU backend
  std::unique_ptr<sim::levelset::GpuSortedTileList> gpu_list_;        // CUDA backend
  std::unique_ptr<sim::levelset::GpuLevelSetEvolution> gpu_evolution_;
  glm::ivec3 min_voxel_{0};  // the voxel at the box's origin
  sim::Volume box_;
  sim::CubeRecordSet records_;
  bool records_current_ = false;
  double time_ = 0.0;
};

}  // namespace meniscus
