#include "sim/levelset/enright.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>

#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/level_set_measures.h"

namespace meniscus::sim::levelset {

EnrightResult run_enright(const EnrightSetup& setup) {
  const int n = setup.resolution;
  // Cell-centred unit cube: x = (i + ½) / n, so the point 0.35 is voxel 0.35 n − ½.
  const glm::vec3 centre(0.35f * n - 0.5f);
  const float radius = 0.15f * n;
  SortedTileList list(setup.gamma, 64, setup.precision);
  build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, glm::ivec3(0), glm::ivec3(n));

  EvolutionParams params;
  params.scheme = setup.scheme;
  params.velocity = enright_velocity(n, setup.period);
  params.cfl = setup.cfl;
  params.rescaling_speed = setup.rescaling_speed;
  params.reinit = setup.reinit();
  LevelSetEvolution evolution(params);

  EnrightResult result;
  const InsideMoments before = inside_moments(list);
  result.initial_volume = before.volume;
  result.exact_volume = 4.0 / 3.0 * std::numbers::pi * double(radius) * radius * radius;
  result.initial_area = surface_area(list);
  result.max_area = result.initial_area;

  using Clock = std::chrono::steady_clock;
  Clock::duration evolving{};
  double t = 0;
  // Time in double: ~2000 float increments would drift off T by more than a step's worth.
  while (setup.period - t > 1e-7 * setup.period) {
    const auto start = Clock::now();
    t += evolution.step(list, float(t), float(setup.period - t));
    evolving += Clock::now() - start;
    ++result.steps;
    result.max_tiles = std::max(result.max_tiles, list.size());
    result.max_bytes = std::max(result.max_bytes, list.bytes());
    if (result.steps % 64 == 0) result.max_area = std::max(result.max_area, surface_area(list));
  }
  result.seconds = std::chrono::duration<double>(evolving).count();

  const InsideMoments after = inside_moments(list);
  result.final_volume = after.volume;
  result.volume_loss = 1.0 - after.volume / before.volume;
  result.final_area = surface_area(list);
  result.centroid_shift = glm::length(after.centroid - before.centroid);
  return result;
}

}  // namespace meniscus::sim::levelset
