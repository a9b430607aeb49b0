// Bad settings and runaway simulations: one clear error each, never a crash or a silent fix.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "engine/core/error.h"
#include "sim/common/simulation_error.h"
#include "sim/sph/sph_cpu.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;

SphParams small_block() {
  SphParams p;
  p.particle_radius = 0.01f;
  p.domain = {{0, 0, 0}, {0.4f, 0.4f, 0.2f}};
  p.fills.push_back({{{0, 0, 0}, {0.1f, 0.2f, 0.1f}}, {0, 0, 0}});
  return p;
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST_CASE("settings out of range name their field", "[sph][input]") {
  SphParams p = small_block();
  SECTION("negative radius") {
    p.particle_radius = -0.01f;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.particle_radius"));
  }
  SECTION("NaN gravity") {
    p.gravity[1] = kNaN;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.gravity") && Contains("finite"));
  }
  SECTION("NaN in a fill") {
    p.fills[0].box.max[2] = kNaN;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.fill[0].box"));
  }
  SECTION("fill outside the domain") {
    p.fills[0].box.max[0] = 0.5f;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.fill[0].box") && Contains("outside the domain"));
  }
  SECTION("capacity below the fills") {
    p.capacity = 10;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.capacity") && Contains("need"));
  }
  SECTION("an emitter needs a capacity") {
    p.emitters.push_back({{0.2f, 0.2f, 0.1f}, {1, 0, 0}, 0.02f, 1.0f, 0.0f, 1.0f});
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.capacity"));
  }
  SECTION("emitter outside the domain") {
    p.capacity = 100000;
    p.emitters.push_back({{0.2f, 0.9f, 0.1f}, {1, 0, 0}, 0.02f, 1.0f, 0.0f, 1.0f});
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.emitter[0].center"));
  }
  SECTION("zero direction") {
    p.capacity = 100000;
    p.emitters.push_back({{0.2f, 0.2f, 0.1f}, {0, 0, 0}, 0.02f, 1.0f, 0.0f, 1.0f});
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.emitter[0].direction"));
  }
  SECTION("no fluid at all") {
    p.fills.clear();
    CHECK_THROWS_WITH(SphCpu(p), Contains("no fluid"));
  }
  SECTION("empty domain") {
    p.domain.max[1] = 0.0f;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.domain"));
  }
  SECTION("domain too large for the grid") {
    p.domain.max[0] = 100.0f;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.domain") && Contains("particle_radius"));
  }
  SECTION("particle volume neither the lattice's nor a fraction of a cell near one") {
    p.particle_volume = 0.3f;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.particle_volume"));
    p.particle_volume = kNaN;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.particle_volume"));
  }
  SECTION("min_dt above max_dt") {
    p.min_dt = 0.1f;
    CHECK_THROWS_WITH(SphCpu(p), Contains("sph.min_dt"));
  }
  SECTION("the error is an InputError") { CHECK_NOTHROW(SphCpu(p)); }
}

TEST_CASE("a step that blows up stops with a SimulationError", "[sph][input]") {
  // Explicit viscosity far beyond its stability limit (nu dt / h^2 = 30) with a fixed step:
  // velocities grow without bound. The stage must say so instead of publishing garbage.
  SphParams p = small_block();
  p.adaptive = false;
  p.fixed_dt = 0.005f;
  p.viscosity = 50.0f;
  SphCpu sph(p);
  bool stopped = false;
  try {
    for (int frame = 0; frame < 100; ++frame) sph.step(0.05);
  } catch (const SimulationError& error) {
    stopped = true;
    INFO(error.what());
    CHECK_THAT(error.what(), Contains("sph (cpu) at t = "));
  }
  CHECK(stopped);
}

TEST_CASE("an exploding adaptive run reports the speed it reached", "[sph][input]") {
  SphParams p = small_block();
  p.fills[0].velocity[0] = 1e6f;  // launched faster than any step above min_dt can follow
  SphCpu sph(p);
  CHECK_THROWS_AS(sph.step(1.0 / 60.0), SimulationError);
  CHECK_THROWS_WITH(sph.step(1.0 / 60.0), Contains("unstable") && Contains("min_dt"));
}

}  // namespace meniscus::sim
