#pragma once
// What both level-set stage backends share: the initial level set from the stage's source,
// the box it is drawn in, and the frame's cube records made from a host SortedTileList.
#include <memory>

#include "sim/levelset/levelset_stage.h"
#include "sim/levelset/brush.h"
#include "sim/levelset/particle_level_set.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct InitialLevelSet {
  std::unique_ptr<SortedTileList> list;  // empty for a particle stage's, until its first frame
  Volume box;
  glm::ivec3 min_voxel{0};  // the voxel at the box's origin
  EvolutionParams evolution;
};

// The particle builder's parameters for a level set from particles (InputError for a grid the
// tile keys cannot hold).
ParticleLevelSetParams particle_level_set_params(const LevelSetStageParams& params);

// Reads the mesh or cloud, or sets up Enright's sphere (InputError naming the file).
InitialLevelSet make_initial_level_set(const LevelSetStageParams& params);

class LevelSetStageBase : public LevelSetStage {
 public:
  LevelSetStageBase(const LevelSetStageParams& params, InitialLevelSet initial);

  void consume(const ParticleInput& input) override { input_ = input; }
  const Volume& box() const override { return box_; }
  const CubeRecordSet& records(float phi_iso) override;
  const SortedTileList& host_level_set() override {
    sync_host_list();
    return *list_;
  }
  glm::vec3 record_origin() const override;
  glm::vec3 voxel0() const override { return box_.origin - glm::vec3(min_voxel_) * box_.spacing; }
  float gamma() const override { return list_->gamma(); }
  size_t tiles() const override { return list_->size(); }
  double time() const override { return time_; }
  void set_brush(const std::optional<Brush>& brush) override { held_ = brush; }

 protected:
  // The host list changed: the records of the next records() call are made afresh.
  void list_changed() { records_current_ = false; }
  // Brings the host list up to date before records() reads it (CUDA: a download).
  virtual void sync_host_list() {}
  // The brush of the frame about to step (a scripted stroke's, else the held one) in voxels;
  // counts the frame. nullopt: none.
  std::optional<BrushSpeed> next_brush();
  // A level set from particles rebuilds while time runs, and once on the first frame even when
  // paused.
  bool rebuild_due(double dt) const { return dt > 0.0 || !built_; }

  LevelSetStageParams params_;
  std::unique_ptr<SortedTileList> list_;
  EvolutionParams evolution_params_;
  double time_ = 0.0;
  ParticleInput input_;  // the producer's frame, for a level set from particles
  bool built_ = false;

 private:
  std::optional<Brush> held_;
  int frame_ = 0;  // frames that stepped
  Volume box_;
  glm::ivec3 min_voxel_{0};
  CubeRecordSet records_;
  bool records_current_ = false;
};

std::unique_ptr<LevelSetStage> make_levelset_cpu(const LevelSetStageParams& params, InitialLevelSet initial);
std::unique_ptr<LevelSetStage> make_levelset_cuda(const LevelSetStageParams& params, InitialLevelSet initial,
                                                  const Context& context);

}  // namespace meniscus::sim::levelset
