// The sculpting brush (sim/levelset/brush.h, thesis §7.6.3 Eq. 7.5) on a flat face: a stroke
// held for time T adds f0 T ∫ exp(−ρ²/2σ²) dA = f0 T 2πσ² (1 − e^{−9/2}) of volume (the face
// moves by F along its normal; the Gaussian is cut at 3σ), within 5 %, and the surface stays
// closed and manifold. Removing material is the same with f0 < 0.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "sim/histopyramid/indexed_mesh.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/brush.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/evolution.h"
#include "sim/levelset/level_set_builder.h"
#include "sim/levelset/level_set_measures.h"
#include "sim/levelset/ray_hit.h"

namespace meniscus::sim::levelset {
namespace {

// A 48 x 48 x 24 box with its top face at z = 32.
const glm::vec3 kBoxMin(8.0f), kBoxMax(56.0f, 56.0f, 32.0f);

float box_distance(glm::vec3 p) {
  const glm::vec3 c = 0.5f * (kBoxMin + kBoxMax), h = 0.5f * (kBoxMax - kBoxMin);
  const glm::vec3 q = glm::abs(p - c) - h;
  return glm::length(glm::max(q, 0.0f)) + std::min(std::max(q.x, std::max(q.y, q.z)), 0.0f);
}

// Holds the brush for time `duration`; returns the volume it added.
double stroke(SortedTileList& list, const BrushSpeed& brush, float duration) {
  EvolutionParams p;
  p.scheme = Scheme::kUpwind;
  p.normal_speed = [brush](glm::vec3 voxel) { return brush_speed_at(brush, voxel); };
  p.extend_normal_speed = true;
  p.rescaling_speed = true;
  LevelSetEvolution evolution(p);
  const double before = inside_moments(list).volume;
  float t = 0.0f;
  while (t < duration - 1e-6f) t += evolution.step(list, t, duration - t);
  return inside_moments(list).volume - before;
}

double expected_volume(const BrushSpeed& b, float duration) {
  return double(b.strength) * duration * 2.0 * std::numbers::pi * b.sigma * b.sigma * (1.0 - std::exp(-4.5));
}

EdgeCensus census(const SortedTileList& list) {
  CubeRecordSet records;
  generate_cube_records(list, records);
  return edge_census(extract_record_mesh(records, glm::vec3(records.origin), 1.0f));
}

}  // namespace

TEST_CASE("sculpt: a brush stroke adds and removes the volume of Eq. 7.5 and leaves the surface closed") {
  SortedTileList list(1.5f);
  build_from_sdf(list, box_distance, glm::ivec3(0), glm::ivec3(64, 64, 40));
  REQUIRE(census(list).watertight());

  // The brush on the top face's middle: σ = 4 voxels, f0 = 1 voxel per unit time, for 0.8
  // (the face rises at most 0.8 voxel, a fifth of σ, so the Gaussian barely changes under it).
  BrushSpeed add{glm::vec3(32.0f, 32.0f, 32.0f), 4.0f, 1.0f};
  const double added = stroke(list, add, 0.8f);
  INFO("added " << added << " voxels, expected " << expected_volume(add, 0.8f));
  CHECK(added == Approx(expected_volume(add, 0.8f)).epsilon(0.05));
  const EdgeCensus after_add = census(list);
  CHECK(after_add.watertight());

  // Carving beside it.
  BrushSpeed carve{glm::vec3(20.0f, 20.0f, 32.0f), 3.0f, -1.0f};
  const double removed = stroke(list, carve, 0.6f);
  INFO("removed " << removed << " voxels, expected " << expected_volume(carve, 0.6f));
  CHECK(removed == Approx(expected_volume(carve, 0.6f)).epsilon(0.05));
  CHECK(census(list).watertight());
  CHECK(list.check_invariants().empty());
}

TEST_CASE("sculpt: the brush is zero beyond 3 sigma and Gaussian inside") {
  const BrushSpeed b{glm::vec3(0.0f), 2.0f, 3.0f};
  CHECK(brush_speed_at(b, glm::vec3(0.0f)) == 3.0f);
  CHECK(brush_speed_at(b, glm::vec3(2.0f, 0.0f, 0.0f)) == Approx(3.0f * std::exp(-0.5f)));
  CHECK(brush_speed_at(b, glm::vec3(0.0f, 6.0f, 0.0f)) == Approx(3.0f * std::exp(-4.5f)));
  CHECK(brush_speed_at(b, glm::vec3(0.0f, 6.01f, 0.0f)) == 0.0f);
}

TEST_CASE("sculpt: the mouse ray meets the surface where a sphere's is, and misses beside it") {
  SortedTileList list(1.5f);
  build_from_sdf(list, [](glm::vec3 p) { return glm::length(p - glm::vec3(32.0f)) - 10.0f; }, glm::ivec3(0),
                 glm::ivec3(64));
  // From far along -x towards the centre: the hit lies on the sphere, 10 voxels before it
  // (within half a voxel: the march reads the nearest voxel).
  const auto hit = first_hit(list, {-500.0f, 32.0f, 32.0f}, {1.0f, 0.0f, 0.0f}, 2000.0f);
  REQUIRE(hit);
  CHECK(hit->x == Approx(22.0f).margin(0.5f));
  CHECK(hit->y == 32.0f);
  // A ray passing 12 voxels from the centre misses; one too short stops before the sphere.
  CHECK_FALSE(first_hit(list, {-500.0f, 44.0f, 32.0f}, {1.0f, 0.0f, 0.0f}, 2000.0f));
  CHECK_FALSE(first_hit(list, {-500.0f, 32.0f, 32.0f}, {1.0f, 0.0f, 0.0f}, 400.0f));
}

}  // namespace meniscus::sim::levelset
