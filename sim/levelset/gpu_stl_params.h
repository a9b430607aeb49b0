#pragma once
// What the CUDA backend evolves: Eq. 1 with its fields as data (gpu_stl_fields.h) instead of
// the CPU's callables. to_cpu_params() gives the CPU evolution of the very same equation, and
// from_cpu_params() reads a CPU set-up back where its fields can be described as data, so a
// command or a test states the physics once and runs it on either backend.
#include "sim/levelset/evolution.h"
#include "sim/levelset/brush.h"
#include "sim/levelset/gpu_stl_fields.h"
#include "sim/levelset/threshold_speed.h"

namespace meniscus::sim::levelset {

struct GpuEvolutionParams {
  Scheme scheme = Scheme::kWeno5;
  float normal_speed = 0.0f;  // F, constant; 0: no normal-speed term
  // A segmentation's data term (threshold_speed.h, its volume in device memory): when its
  // volume is set, F is this field instead of the constant, which must then be 0.
  ThresholdSpeed threshold;
  // A sculpting brush (brush.h): when its sigma is set, F is the constant plus the brush's speed.
  BrushSpeed brush;
  bool extend_normal_speed = false;  // F at each voxel's nearest point on the front (evolution.h)
  bool effective_normal_cfl = false;  // (evolution.h)
  FieldVelocity velocity;     // U(x, t)
  float alpha = 0.0f;         // curvature weight α
  bool rescaling_speed = false;
  float rescaling_weight = 1.0f;  // β (evolution.h)
  float cfl = 0.5f;
  // The reinitialisation PDE after every reinit.every-th step the list takes (reinitialise.h).
  ReinitParams reinit;
};

EvolutionParams to_cpu_params(const GpuEvolutionParams& params);

// Throws InputError when the CPU set-up has what the GPU cannot take: a velocity callable (say
// which field it is with `velocity`). `normal_speed` is F when
// `cpu.normal_speed` is set (its callable cannot be read back).
GpuEvolutionParams from_cpu_params(const EvolutionParams& cpu, float normal_speed, const FieldVelocity& velocity = {});

}  // namespace meniscus::sim::levelset
