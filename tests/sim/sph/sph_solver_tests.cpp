// The SPH stage's CPU backend: incompressibility, conservation, boundaries, sources and sinks,
// determinism.
#include <catch2/catch.hpp>

#include <tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "sim/sph/sph_cpu.h"

namespace meniscus::sim {
namespace {

// A column 10 x 20 x 10 particles in a tank it fills exactly, so it only has to settle.
SphParams standing_column() {
  SphParams p;
  p.particle_radius = 0.005f;
  const float d = p.diameter();
  p.domain = {{0, 0, 0}, {10 * d, 26 * d, 10 * d}};
  p.fills.push_back({{{0, 0, 0}, {10 * d, 20 * d, 10 * d}}, {0, 0, 0}});
  return p;
}

float top_of(const std::vector<Particle>& particles) {
  float top = 0.0f;
  for (const Particle& p : particles) top = std::max(top, p.position[1]);
  return top;
}

}  // namespace

TEST_CASE("a settled column keeps rest density and its height", "[sph][incompressible]") {
  SphParams params = standing_column();
  // The cubic start lattice rearranges into a denser packing as the column takes its weight;
  // a viscosity well above water's damps that sloshing within the test's half second.
  params.viscosity = 1e-3f;
  SphCpu sph(params);
  const float height = top_of(sph.particles()) + params.particle_radius;
  for (int frame = 0; frame < 30; ++frame) sph.step(1.0 / 60.0);  // half a second
  const std::vector<Particle> particles = sph.particles();
  // Particles whose kernel support reaches above the free surface lack neighbours there by
  // construction (no density solver adds them): the bulk is the rest.
  const float settled = top_of(particles) + params.particle_radius;
  double sum = 0.0, max_density = 0.0;
  size_t bulk = 0;
  float max_speed = 0.0f;
  for (const Particle& p : particles) {
    // The bottom layer settles into the hollows of the wall's first sample layer, half a
    // spacing outside the domain, and no further.
    for (int a = 0; a < 3; ++a) {
      CHECK(p.position[a] >= params.domain.min[a] - params.particle_radius);
      CHECK(p.position[a] <= params.domain.max[a] + params.particle_radius);
    }
    max_speed = std::max(max_speed, std::hypot(p.velocity[0], p.velocity[1], p.velocity[2]));
    if (p.position[1] < settled - params.support()) {
      sum += p.density;
      max_density = std::max<double>(max_density, p.density);
      ++bulk;
    }
  }
  const double mean = sum / double(bulk);
  INFO("bulk particles " << bulk << ", mean density " << mean << ", max " << max_density << ", height " << settled
                         << " (was " << height << "), max speed " << max_speed << " m/s");
  CHECK(bulk > particles.size() / 2);
  CHECK(std::abs(mean / params.rest_density - 1.0) < 0.01);
  CHECK(max_density < 1.03 * params.rest_density);
  CHECK(std::abs(settled - height) < params.diameter());  // repacking, no compression
  CHECK(max_speed < 0.1f);  // settling: no spurious currents
  CHECK(sph.stats().density_error < params.density_tolerance);
}

TEST_CASE("at SPlisHSPlasH's particle volume a lattice starts 20% light and packs to rest density",
          "[sph][incompressible]") {
  // 0.8 d^3 per particle: the mass of 0.8 lattice cells, so the fill starts at 0.8 rest density
  // and packs until its bulk is at rest density. Its height then drops to 0.8 of the start or a
  // little below: the layers along the walls and the free surface (this column is 10 particles
  // wide) have fewer fluid neighbours and pack closer before they reach rest density.
  SphParams params = standing_column();
  params.viscosity = 1e-3f;
  params.particle_volume = 0.8f;
  SphCpu sph(params);
  const float height = top_of(sph.particles()) + params.particle_radius;
  auto bulk_density = [&](const std::vector<Particle>& particles, float top) {
    double sum = 0.0;
    size_t bulk = 0;
    for (const Particle& p : particles)
      if (p.position[1] > params.support() && p.position[1] < top - params.support()) sum += p.density, ++bulk;
    return sum / double(bulk) / params.rest_density;
  };
  sph.step(1e-4);  // one substep: the densities of the lattice as filled
  const double start = bulk_density(sph.particles(), height);
  for (int frame = 0; frame < 60; ++frame) sph.step(1.0 / 60.0);
  const std::vector<Particle> particles = sph.particles();
  const float settled = top_of(particles) + params.particle_radius;
  const double packed = bulk_density(particles, settled);
  INFO("bulk density " << start << " of rest at the start, " << packed << " after 1 s; height " << height << " -> "
                       << settled);
  CHECK(std::abs(start - 0.8) < 0.005);
  CHECK(std::abs(packed - 1.0) < 0.01);
  CHECK(settled < 0.8f * height + 0.5f * params.diameter());
  CHECK(settled > 0.7f * height);
}

TEST_CASE("a column released into a tank conserves its particles and stays inside", "[sph][conservation]") {
  SphParams params = standing_column();
  const float d = params.diameter();
  params.domain.max[0] = 30 * d;  // room to collapse into
  SphCpu sph(params);
  const size_t count = sph.count();
  const double mass = double(count) * sph.constants().volume * params.rest_density;
  for (int frame = 0; frame < 15; ++frame) sph.step(1.0 / 60.0);
  CHECK(sph.count() == count);
  CHECK(double(sph.count()) * sph.constants().volume * params.rest_density == mass);
  for (const Particle& p : sph.particles())
    for (int a = 0; a < 3; ++a) REQUIRE(std::isfinite(p.position[a]));
  // The walls' particles, not the safety net, should hold the fluid: few contacts.
  INFO("wall contacts " << sph.stats().wall_contacts << " over " << count << " particles");
  CHECK(sph.stats().wall_contacts < count / 20);
}

TEST_CASE("no particle enters a box collider", "[sph][boundary]") {
  SphParams params = standing_column();
  const float d = params.diameter();
  params.domain.max[0] = 30 * d;
  SphBoxCollider obstacle{{{16 * d, 0, 0}, {19 * d, 6 * d, 10 * d}}};
  params.boxes.push_back(obstacle);
  SphCpu sph(params);
  for (int frame = 0; frame < 24; ++frame) sph.step(1.0 / 60.0);
  // Inside = deeper than the box's first sample layer (half a spacing in from its faces).
  const float r = params.particle_radius;
  size_t inside = 0, beyond = 0;
  for (const Particle& p : sph.particles()) {
    const bool in = p.position[0] > obstacle.box.min[0] + r && p.position[0] < obstacle.box.max[0] - r &&
                    p.position[1] < obstacle.box.max[1] - r;
    inside += in;
    beyond += p.position[0] > obstacle.box.max[0];
  }
  CHECK(inside == 0);
  CHECK(beyond > 0);  // the surge went over the obstacle rather than stopping short of it
}

TEST_CASE("a plane collider holds the fluid like a floor", "[sph][boundary]") {
  SphParams params = standing_column();
  const float d = params.diameter();
  // A raised floor: the column stands on a plane 2 spacings above the domain's bottom.
  params.fills[0].box.min[1] = 2 * d;
  params.fills[0].box.max[1] = 22 * d;
  params.planes.push_back({{0, 2 * d, 0}, {0, 1, 0}});
  SphCpu sph(params);
  for (int frame = 0; frame < 20; ++frame) sph.step(1.0 / 60.0);
  float lowest = 1e9f;
  for (const Particle& p : sph.particles()) lowest = std::min(lowest, p.position[1]);
  CHECK(lowest > 2 * d);
  CHECK(lowest < 2 * d + params.particle_radius * 1.5f);
  CHECK(sph.stats().wall_contacts == 0);  // the plane, not the domain's floor, held it
}

TEST_CASE("emitters add and sinks remove particles, ids stay dense", "[sph][sources]") {
  SphParams params;
  params.particle_radius = 0.005f;
  params.domain = {{0, 0, 0}, {0.3f, 0.2f, 0.1f}};
  params.emitters.push_back({{0.02f, 0.15f, 0.05f}, {1, 0, 0}, 0.015f, 1.0f, 0.0f, 1e30f});
  params.sinks.push_back({{{0.2f, 0.0f, 0.0f}, {0.3f, 0.05f, 0.1f}}});
  params.capacity = 4000;
  SphCpu sph(params);
  CHECK(sph.count() == 0);
  for (int frame = 0; frame < 60; ++frame) {
    sph.step(1.0 / 60.0);
    const SphStats& s = sph.stats();
    REQUIRE(sph.count() == s.emitted - s.removed);
  }
  const SphStats& s = sph.stats();
  INFO("emitted " << s.emitted << ", removed " << s.removed << ", dropped " << s.dropped << ", blocked " << s.blocked);
  CHECK(s.removed > 0);
  // The published ids are exactly 0..count-1: every slot written once.
  std::vector<Particle> particles = sph.particles();
  for (const Particle& p : particles) REQUIRE(std::isfinite(p.position[0]));
  // A jet of 1 m/s releases a layer per spacing travelled: 100 layers in the second, each the
  // lattice sites of the 1.5 cm disk (9 at this coarse spacing, not pi r^2 / d^2 = 7.1).
  int per_layer = 0;
  for (int a = -2; a <= 2; ++a)
    for (int b = -2; b <= 2; ++b) per_layer += (a * a + b * b) * 0.01 * 0.01 <= 0.015 * 0.015;
  CHECK(per_layer == 9);
  const uint64_t released = s.emitted + s.dropped + s.blocked;
  CHECK(released >= uint64_t(99 * per_layer));
  CHECK(released <= uint64_t(100 * per_layer));
  // A free jet clears its mouth: few sites find fluid still there.
  CHECK(s.blocked < released / 20);
}

TEST_CASE("the emitter stops at the capacity and says how many it dropped", "[sph][sources]") {
  SphParams params;
  params.particle_radius = 0.005f;
  params.domain = {{0, 0, 0}, {0.3f, 0.2f, 0.1f}};
  params.emitters.push_back({{0.02f, 0.15f, 0.05f}, {1, 0, 0}, 0.015f, 1.0f, 0.0f, 1e30f});
  params.capacity = 300;
  SphCpu sph(params);
  for (int frame = 0; frame < 30; ++frame) sph.step(1.0 / 60.0);
  CHECK(sph.count() == 300);
  CHECK(sph.stats().dropped > 0);
}

std::vector<Particle> dam_break_state(int threads) {
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
  SphParams params = standing_column();
  params.domain.max[0] = 30 * params.diameter();
  params.seed = 7;
  SphCpu sph(params);
  for (int frame = 0; frame < 8; ++frame) sph.step(1.0 / 60.0);
  return sph.particles();
}

TEST_CASE("SPH: bit-identical across runs and thread counts", "[sph][determinism]") {
  const std::vector<Particle> a = dam_break_state(2);
  const std::vector<Particle> b = dam_break_state(2);
  const std::vector<Particle> c = dam_break_state(1);
  REQUIRE(a.size() == b.size());
  REQUIRE(a.size() == c.size());
  CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(Particle)) == 0);
  CHECK(std::memcmp(a.data(), c.data(), a.size() * sizeof(Particle)) == 0);
  // And the run did something: the column moved.
  const std::vector<Particle> start = SphCpu(standing_column()).particles();
  float moved = 0.0f;
  for (size_t i = 0; i < std::min(a.size(), start.size()); ++i) moved = std::max(moved, std::abs(a[i].position[0] - start[i].position[0]));
  CHECK(moved > 0.01f);
}

TEST_CASE("agitation is |dv| over the last step", "[sph][foam]") {
  SphParams params = standing_column();
  params.domain.max[0] = 30 * params.diameter();
  params.adaptive = false;
  params.fixed_dt = 0.001f;
  SphCpu sph(params);
  for (int frame = 0; frame < 5; ++frame) sph.step(0.01);
  const std::vector<Particle> before = sph.particles();
  sph.step(0.001);
  const std::vector<Particle> after = sph.particles();
  double max_error = 0.0, max_agitation = 0.0;
  for (size_t i = 0; i < after.size(); ++i) {
    const double dv = std::hypot(after[i].velocity[0] - before[i].velocity[0], after[i].velocity[1] - before[i].velocity[1],
                                 after[i].velocity[2] - before[i].velocity[2]);
    max_error = std::max(max_error, std::abs(dv - after[i].agitation));
    max_agitation = std::max<double>(max_agitation, after[i].agitation);
  }
  CHECK(max_agitation > 9.81 * 0.001 * 0.5);  // the collapse accelerates particles
  CHECK(max_error < 1e-5);
}

}  // namespace meniscus::sim
