#include "sim/levelset/gpu_stl_params.h"

#include "engine/core/error.h"

namespace meniscus::sim::levelset {

EvolutionParams to_cpu_params(const GpuEvolutionParams& g) {
  EvolutionParams p;
  p.scheme = g.scheme;
  // As the CPU callers do (evolution_params): no callable at all where the term is absent, so
  // both backends skip the same terms.
  if (g.normal_speed != 0.0f) p.normal_speed = constant_speed(g.normal_speed);
  if (g.velocity.kind != FieldVelocity::Kind::kNone) {
    const FieldVelocity u = g.velocity;
    p.velocity = [u](glm::vec3 voxel, float t) { return velocity_at(u, voxel, t); };
  }
  p.alpha = g.alpha;
  p.rescaling_speed = g.rescaling_speed;
  p.rescaling_weight = g.rescaling_weight;
  p.extend_normal_speed = g.extend_normal_speed;
  p.effective_normal_cfl = g.effective_normal_cfl;
  p.cfl = g.cfl;
  p.reinit = g.reinit;
  return p;
}

GpuEvolutionParams from_cpu_params(const EvolutionParams& cpu, float normal_speed, const FieldVelocity& velocity) {
  if (cpu.velocity && velocity.kind == FieldVelocity::Kind::kNone)
    throw InputError("levelset --sim cuda: the velocity field is a CPU callable the GPU cannot evaluate");
  if (cpu.evolves) throw InputError("levelset --sim cuda: the GPU evolves every tile (no frozen tiles)");
  GpuEvolutionParams g;
  g.scheme = cpu.scheme;
  g.normal_speed = cpu.normal_speed ? normal_speed : 0.0f;
  g.velocity = cpu.velocity ? velocity : FieldVelocity{};
  g.alpha = cpu.alpha;
  g.rescaling_speed = cpu.rescaling_speed;
  g.rescaling_weight = cpu.rescaling_weight;
  g.extend_normal_speed = cpu.extend_normal_speed;
  g.effective_normal_cfl = cpu.effective_normal_cfl;
  g.cfl = cpu.cfl;
  g.reinit = cpu.reinit;
  return g;
}

}  // namespace meniscus::sim::levelset
