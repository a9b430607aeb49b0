#pragma once
// What both SPH backends derive from SphParams before the first step: the kernel and particle
// volume, the grid and its Z-order ranks, the boundary samples, the initial particles; and the
// host-side schedule of the inflow emitters.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/common/particle_stage.h"
#include "sim/sph/sph_boundary.h"
#include "sim/sph/sph_grid.h"
#include "sim/sph/sph_ops.h"
#include "sim/sph/sph_params.h"

namespace meniscus::sim::sph {

struct Setup {
  Constants constants;
  GridShape grid;
  std::vector<uint32_t> rank;
  Boundary boundary;
  std::vector<Vec3> position;  // the fills, in input order
  std::vector<Vec3> velocity;
  uint32_t capacity;
};

// Throws InputError (via params.validate()) for bad settings.
Setup prepare(const SphParams& params);

// The volume that gives a particle of a full cubic lattice of spacing `spacing` exactly the rest
// density: the kernel's discrete partition of unity, not the lattice cell, defines it.
float lattice_volume(const Kernel& kernel, float spacing);

// Most neighbours a particle may have: far above the ~33 of a compressed bulk, so reaching it
// means the solver has failed (particles collapsed onto each other).
constexpr uint32_t kMaxNeighbours = 160;

// Releases particles from the inflow emitters as simulated time passes: one disk layer each
// time the last one has travelled a lattice spacing.
class EmitterSchedule {
 public:
  // One released layer: the emitter's disk at `origin`, every particle moving at `velocity`.
  struct Layer {
    uint32_t stream;  // index into params.emitters, whose offsets() the particles sit at
    Vec3 origin;
    Vec3 velocity;
  };

  explicit EmitterSchedule(const SphParams& params);
  // Appends the layers released during [time, time + dt), streams in order, each stream's
  // layers oldest first: the order newborn particles take their ids in.
  void advance_layers(double time, float dt, std::vector<Layer>& layers);
  // The same as particles: each layer's offsets in order.
  void advance(double time, float dt, std::vector<Vec3>& position, std::vector<Vec3>& velocity);
  // A stream's particle offsets from its layer's origin.
  const std::vector<Vec3>& offsets(uint32_t stream) const { return streams_[stream].layer; }
  size_t streams() const { return streams_.size(); }
  // Scales every emitter's speed, so its particle rate (the UI's "emitter rate" slider).
  float* rate_control() { return &rate_; }

 private:
  struct Stream {
    SphEmitter emitter;
    std::vector<Vec3> layer;  // offsets of one layer's particles from the centre
    float travelled = 0.0f;   // since the last layer
  };
  std::vector<Stream> streams_;
  float spacing_;
  float rate_ = 1.0f;
};

// The UI's sliders for either backend: particle size (sets the count; resets), viscosity, wall
// friction, surface tension, emitter rate. The pointers stay valid while the stage lives.
std::vector<StageControl> stage_controls(SphParams& params, float scene_radius, EmitterSchedule& emitters);

// Copies the sliders' material settings into the solver's constants (at each step).
void refresh_constants(const SphParams& params, Constants& constants);

// `applied` with the settings that take effect without a reset (the material sliders) taken
// from `live`: what a stage goes back to when a reset it was asked for cannot be made.
SphParams settings_without_reset(const SphParams& applied, const SphParams& live);

}  // namespace meniscus::sim::sph
