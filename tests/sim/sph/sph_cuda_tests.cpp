// The SPH stage's CUDA backend against its CPU backend on a real NVIDIA device. The solvers
// iterate to a tolerance with float atomics and reductions in a different order, so the runs
// diverge particle by particle; what must agree is the physics: the dam-break front, the mean
// density, the particle count. Also: publishing through a Vulkan-exported buffer on the shared
// timeline, emitters and sinks (a small waterfall particle by particle, a jet by its counts), and
// a blow-up reported as on the CPU.
// Exits with MENISCUS_SKIP_CODE (ctest: skipped) and says why when no CUDA device answers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dam_break.h"
#include "engine/core/buffer.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "sim/common/simulation_error.h"
#include "sim/sph/sph_cpu.h"
#include "sim/sph/sph_cuda.h"
#include "tests/support/device_checks.h"
#include "tests/unit/interop/stage_read_back.h"

namespace meniscus {
namespace {

using device_test::check;

struct Summary {
  double front = 0.0, mean_density = 0.0;
  bool finite = true;
};

Summary summarise(const std::vector<sim::Particle>& particles) {
  Summary s;
  for (const sim::Particle& p : particles) {
    s.front = std::max<double>(s.front, p.position[0]);
    s.mean_density += p.density;
    for (int a = 0; a < 3; ++a) s.finite = s.finite && std::isfinite(p.position[a]) && std::isfinite(p.velocity[a]);
  }
  s.mean_density /= double(particles.size());
  return s;
}

// A small waterfall with a fixed step, so that both backends take the same substeps: a jet falls
// into a basin walled off from its drain, and the drain holds a block of fluid at the start. The
// block is the first fill, so it has the lowest ids: the drain empties it at the first substep
// and the pool's last ids move into the holes, then the jet's particles take the next ids. Every
// id must hold the same particle on both backends: another compaction or relabelling order would
// put the particles of an id a spacing or more apart.
sim::SphParams waterfall() {
  sim::SphParams p;
  p.particle_radius = 0.005f;
  p.domain = {{0, 0, 0}, {0.2f, 0.16f, 0.06f}};
  p.adaptive = false;
  p.fixed_dt = 0.002f;
  p.fills.push_back({{{0.14f, 0.0f, 0.0f}, {0.18f, 0.02f, 0.06f}}, {0, 0, 0}});  // in the drain: 48
  p.fills.push_back({{{0.0f, 0.0f, 0.0f}, {0.1f, 0.03f, 0.06f}}, {0, 0, 0}});    // the basin: 180
  p.boxes.push_back({{{0.1f, 0.0f, 0.0f}, {0.12f, 0.16f, 0.06f}}});              // its wall
  p.emitters.push_back({{0.04f, 0.12f, 0.03f}, {0, -1, 0}, 0.012f, 0.6f, 0.0f, 1e30f});
  p.sinks.push_back({{{0.13f, 0.0f, 0.0f}, {0.2f, 0.04f, 0.06f}}});
  p.capacity = 1000;
  return p;
}

// Every slot a renderer drawing count() particles reads holds a particle in the domain.
bool drawn_slots_hold_particles(const Context& context, sim::SphStage& stage, const sim::SphParams& params) {
  SharedBuffer shared(context, stage.capacity() * sizeof(sim::Particle), SharedMemory::Host, "test.waterfall");
  std::memset(shared.host_pointer(), 0xFF, shared.size());  // NaN: a slot left unwritten fails below
  stage.write(shared);
  const auto* p = static_cast<const sim::Particle*>(shared.host_pointer());
  bool inside = true;
  for (size_t k = 0; k < stage.count(); ++k)
    for (int a = 0; a < 3; ++a)
      inside = inside && p[k].position[a] >= params.domain.min[a] - params.particle_radius &&
               p[k].position[a] <= params.domain.max[a] + params.particle_radius;
  return inside;
}

void check_waterfall(const Context& context) {
  const sim::SphParams params = waterfall();
  sim::SphCpu cpu(params);
  auto cuda = sim::make_sph_cuda_headless(params);
  double worst = 0.0;
  bool same_counts = true;
  for (int frame = 0; frame < 8; ++frame) {
    cpu.step(1.0 / 60.0);
    cuda->step(1.0 / 60.0);
    // Before synchronize(), count() may still include particles the drain has taken (it is
    // the last record read): what the renderer then draws must not be stale or unwritten.
    if (frame == 0) check(drawn_slots_hold_particles(context, *cuda, params), "waterfall: every drawn slot holds a particle");
    cuda->synchronize();
    const sim::SphStats &c = cpu.stats(), &g = cuda->stats();
    same_counts = same_counts && cuda->count() == cpu.count() && g.removed == c.removed && g.emitted == c.emitted &&
                  g.blocked == c.blocked && g.dropped == c.dropped;
    const std::vector<sim::Particle> a = cpu.particles(), b = cuda->particles();
    if (a.size() != b.size()) {
      same_counts = false;
      break;
    }
    for (size_t id = 0; id < a.size(); ++id)
      worst = std::max(worst, double(std::hypot(a[id].position[0] - b[id].position[0], a[id].position[1] - b[id].position[1],
                                                a[id].position[2] - b[id].position[2])));
  }
  const sim::SphStats& s = cuda->stats();
  std::printf("waterfall: %zu particles (CPU %zu), emitted %llu, removed %llu, worst distance by id %.2e m\n",
              cuda->count(), cpu.count(), (unsigned long long)s.emitted, (unsigned long long)s.removed, worst);
  check(same_counts, "waterfall: every frame, the same count, emitted, removed, blocked and dropped on both backends");
  check(s.removed == 48 && s.emitted > 0, "waterfall: the drain emptied its block and the jet flowed");
  check(worst < 1e-4, "waterfall: every id holds the same particle on both backends (within 1% of a spacing)");
}

int run() {
  Context context(ContextOptions{.validation = true});
  std::string why;
  if (!find_cuda_device(context.info(), &why)) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return MENISCUS_SKIP_CODE;
  }
  const test::DamBreak dam{0.05715f, 16, 0.5f * 0.05715f, 1e-3f};
  const sim::SphParams params = test::dam_break_params(dam);
  sim::SphCpu cpu(params);
  auto cuda = sim::make_sph_cuda(params, context);
  check(cuda->backend() == sim::SimBackend::Cuda && cuda->count() == cpu.count(), "CUDA stage created with the CPU's particles");
  const double time_scale = std::sqrt(dam.a / (2.0 * 9.81));
  for (double T : {0.84, 1.43, 1.98, 2.51}) {
    cpu.step(T * time_scale - cpu.time());
    cuda->step(T * time_scale - cuda->time());
    const Summary c = summarise(cpu.particles()), g = summarise(cuda->particles());
    const double zc = (c.front + params.particle_radius) / dam.a, zg = (g.front + params.particle_radius) / dam.a;
    std::printf("T = %.2f: front Z %.3f (CPU) %.3f (CUDA), mean density %.2f (CPU) %.2f (CUDA)\n", T, zc, zg,
                c.mean_density, g.mean_density);
    check(g.finite, "T = " + std::to_string(T) + ": CUDA particles finite");
    check(std::abs(zg / zc - 1.0) < 0.05, "T = " + std::to_string(T) + ": fronts agree within 5%");
    check(std::abs(g.mean_density / c.mean_density - 1.0) < 0.005, "T = " + std::to_string(T) + ": mean densities within 0.5%");
    check(std::abs(zg / test::martin_moyce_front(T) - 1.0) <= 0.10, "T = " + std::to_string(T) + ": CUDA front within 10% of Martin & Moyce");
  }
  check(cuda->device_ms().has_value(), "CUDA stage reports its kernel time");

  // Published through Vulkan-exported memory on the timeline: exactly what particles() reads.
  // The frame is finished first: on the CPU execution layer it can take longer than the
  // validation layer waits for a timeline value before it reports a timeout of its own.
  cuda->synchronize();
  SharedBuffer shared(context, cuda->capacity() * sizeof(sim::Particle), SharedMemory::Cuda, "test.particles");
  cuda->write(shared);
  const std::vector<sim::Particle> seen = test::read_back(context, *cuda, shared), direct = cuda->particles();
  check(seen.size() == direct.size() && std::memcmp(seen.data(), direct.data(), seen.size() * sizeof(sim::Particle)) == 0,
        "Vulkan reads what the CUDA stage published");

  // Emitters and sinks: the count bookkeeping of the CPU backend.
  sim::SphParams jet;
  jet.particle_radius = 0.005f;
  jet.domain = {{0, 0, 0}, {0.3f, 0.2f, 0.1f}};
  jet.emitters.push_back({{0.02f, 0.15f, 0.05f}, {1, 0, 0}, 0.015f, 1.0f, 0.0f, 1e30f});
  jet.sinks.push_back({{{0.2f, 0.0f, 0.0f}, {0.3f, 0.05f, 0.1f}}});
  jet.capacity = 4000;
  sim::SphCpu jet_cpu(jet);
  auto jet_cuda = sim::make_sph_cuda_headless(jet);
  for (int frame = 0; frame < 60; ++frame) {
    jet_cpu.step(1.0 / 60.0);
    jet_cuda->step(1.0 / 60.0);
  }
  jet_cuda->synchronize();  // count() and stats() are otherwise the previous frame's
  const sim::SphStats& s = jet_cuda->stats();
  check(jet_cuda->count() == s.emitted - s.removed, "CUDA: count = emitted - removed");
  check(jet_cuda->particles().size() == jet_cuda->count(), "CUDA: synchronize() brings count() to the last step");
  const sim::SphStats& c = jet_cpu.stats();
  check(s.emitted + s.blocked + s.dropped == c.emitted + c.blocked + c.dropped, "CUDA's emitters release what the CPU's do");
  check(s.removed > 0, "CUDA sink removed particles");
  check(std::abs(double(jet_cuda->count()) / double(jet_cpu.count()) - 1.0) < 0.05, "CUDA's jet count within 5% of the CPU's");
  check_waterfall(context);

  // A blow-up is a SimulationError, as on the CPU.
  sim::SphParams unstable = test::dam_break_params({0.05f, 8, 0.02f, 0.0f});
  unstable.adaptive = false;
  unstable.fixed_dt = 0.005f;
  unstable.viscosity = 50.0f;
  bool stopped = false;
  try {
    auto stage = sim::make_sph_cuda_headless(unstable);
    for (int frame = 0; frame < 100; ++frame) stage->step(0.05);
  } catch (const sim::SimulationError& error) {
    stopped = std::string(error.what()).find("sph (cuda)") != std::string::npos;
  }
  check(stopped, "a blow-up on CUDA is a SimulationError naming the backend");
  check(context.validation_error_count() == 0, "no validation errors");
  return device_test::summary();
}

}  // namespace
}  // namespace meniscus

int main() { return meniscus::device_test::run_main(meniscus::run); }
