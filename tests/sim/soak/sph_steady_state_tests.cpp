// Soak (issue 18): every scene with an SPH stage, run on the CPU backend until it settles —
// splash over, or inflow and drain in balance — with every particle finite and inside its
// domain at every sample on the way. Labelled `soak`: minutes, so not in the default CI run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "engine/app/scene.h"
#include "engine/app/sph_settings.h"
#include "sim/sph/sph_stage.h"

namespace meniscus::test {
namespace {

constexpr double kFrame = 1.0 / 60.0;
constexpr double kWindow = 0.5;            // seconds of scene time per sample
constexpr int kSettledWindows = 4;         // consecutive windows within the bounds below
constexpr double kEnergyChange = 0.10;     // relative change of the mean kinetic energy...
constexpr double kEnergyAtRest = 2e-4;     // ...or below this (J/kg: mean speed ~2 cm/s)
constexpr double kCountChange = 0.01;      // relative change of the particle count
constexpr double kMaxSceneSeconds = 40.0;  // a scene not settled by then fails

struct Sample {
  double time = 0.0;
  size_t count = 0;
  double mean_energy = 0.0;  // v^2 / 2 per particle
};

// Fails the test at the first particle that is not finite or has left the domain.
Sample sample(const sim::SphStage& stage, const sim::SphParams& params) {
  Sample s;
  s.time = stage.time();
  const auto particles = stage.particles();
  s.count = particles.size();
  double energy = 0.0;
  const float margin = 4.0f * params.particle_radius;
  for (size_t i = 0; i < particles.size(); ++i) {
    const sim::Particle& p = particles[i];
    for (int a = 0; a < 3; ++a) {
      if (!std::isfinite(p.position[a]) || !std::isfinite(p.velocity[a]) || !std::isfinite(p.density)) {
        INFO("t = " << s.time << " s, particle " << i << " axis " << a);
        FAIL("a particle's position, velocity or density is not finite");
      }
      if (p.position[a] < params.domain.min[a] - margin || p.position[a] > params.domain.max[a] + margin) {
        INFO("t = " << s.time << " s, particle " << i << " axis " << a << " at " << p.position[a]);
        FAIL("a particle left the domain");
      }
    }
    energy += 0.5 * (double(p.velocity[0]) * p.velocity[0] + double(p.velocity[1]) * p.velocity[1] +
                     double(p.velocity[2]) * p.velocity[2]);
  }
  s.mean_energy = particles.empty() ? 0.0 : energy / double(particles.size());
  return s;
}

bool settled(const Sample& before, const Sample& now) {
  const double count_change =
      std::abs(double(now.count) - double(before.count)) / std::max<double>(1.0, double(before.count));
  const bool energy_flat = std::abs(now.mean_energy - before.mean_energy) <= kEnergyChange * before.mean_energy;
  const bool at_rest = now.mean_energy < kEnergyAtRest && before.mean_energy < kEnergyAtRest;
  return now.count > 0 && count_change <= kCountChange && (energy_flat || at_rest);
}

void soak(const std::string& scene_name) {
  const Scene scene = load_scene(std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes" / (scene_name + ".toml"));
  const StageConfig* config = nullptr;
  for (const StageConfig& stage : scene.stages)
    if (stage.type == "sph") config = &stage;
  REQUIRE(config != nullptr);
  const sim::SphParams params = read_sph_settings(config->params);
  const auto stage = sim::make_sph_cpu(params);

  const auto start = std::chrono::steady_clock::now();
  Sample previous = sample(*stage, params);
  int settled_windows = 0;
  int frames = 0;
  while (settled_windows < kSettledWindows && stage->time() < kMaxSceneSeconds) {
    for (double t = 0.0; t < kWindow - 1e-9; t += kFrame, ++frames) stage->step(kFrame);
    const Sample now = sample(*stage, params);
    settled_windows = settled(previous, now) ? settled_windows + 1 : 0;
    previous = now;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The figures for the note.
  std::printf("soak %s: %d frames, %.1f s of scene time in %.0f s, %zu particles, mean kinetic energy %.3g J/kg, "
              "%s\n",
              scene_name.c_str(), frames, stage->time(), seconds, previous.count, previous.mean_energy,
              settled_windows >= kSettledWindows ? "settled" : "NOT settled");
  INFO(scene_name << ": " << previous.count << " particles, mean kinetic energy " << previous.mean_energy
                  << " J/kg at t = " << stage->time() << " s");
  CHECK(settled_windows >= kSettledWindows);
}

}  // namespace

TEST_CASE("soak: dam_break settles with every particle finite", "[soak][sph]") { soak("dam_break"); }
TEST_CASE("soak: drop settles with every particle finite", "[soak][sph]") { soak("drop"); }
TEST_CASE("soak: waterfall reaches a steady inflow and drain with every particle finite", "[soak][sph]") {
  soak("waterfall");
}
TEST_CASE("soak: two_surfaces' fluid settles with every particle finite", "[soak][sph]") { soak("two_surfaces"); }

}  // namespace meniscus::test
