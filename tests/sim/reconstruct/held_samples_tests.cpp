// Held samples (held_samples.h) against a sphere's level set: each ends at or below −margin,
// by the least change of its cell, wherever it starts: in the band, outside beyond it, or
// inside beyond it (where nothing needs to change).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "sim/levelset/level_set_builder.h"
#include "sim/reconstruct/held_samples.h"
#include "sim/reconstruct/surface_error.h"

using namespace meniscus::sim;

TEST_CASE("held samples: each ends inside by the margin, the surface within a voxel of it", "[reconstruct][held]") {
  const glm::vec3 centre(40.3f, 40.6f, 39.8f);
  const float radius = 12.0f;
  levelset::SortedTileList list(1.5f);
  levelset::build_from_sdf(
      list, [&](glm::vec3 p) { return glm::length(p - centre) - radius; }, glm::ivec3(12), glm::ivec3(68));
  const glm::vec3 up = glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f));
  const glm::vec3 side = glm::normalize(glm::vec3(-1.0f, 0.1f, 0.4f));
  const std::vector<glm::vec3> held = {
      centre + (radius + 0.6f) * up,     // in the band, outside
      centre + (radius - 0.02f) * side,  // in the band, just inside: within the margin
      centre + (radius + 9.0f) * side,   // outside, beyond the band: a one-voxel ball first
      centre + 0.5f * up,                // at the centre, inside beyond the band
  };
  const size_t tiles_before = list.size();
  const float margin = 0.05f;
  reconstruct::hold_inside(list, held, margin, "test");
  for (size_t i = 0; i < 3; ++i) {
    INFO("held sample " << i);
    CHECK(reconstruct::interpolate_phi(list, held[i]) <= -margin + 1e-5f);
  }
  // interpolate_phi reads a cell beyond the band as outside; the tiles say where it is.
  CHECK(levelset::inside_beyond_band(list, glm::ivec3(glm::floor(held[3]))));
  CHECK_FALSE(levelset::value_at(list, glm::ivec3(glm::floor(held[3]))).has_value());
  // Only the far sample's ball added tiles; the sphere kept its surface elsewhere.
  CHECK(list.size() > tiles_before);
  const std::vector<float> distance = reconstruct::surface_distances(list, std::span(held).first(3));
  CHECK(distance[0] <= 1.0f);
  CHECK(distance[1] <= 0.1f);
  CHECK(distance[2] <= 1.0f);
  CHECK(reconstruct::interpolate_phi(list, centre - (radius + 0.7f) * up) > 0.0f);
  CHECK(list.check_invariants().empty());
}

TEST_CASE("inside_beyond_band: voxels of missing tiles read inside within a closed surface only", "[levelset][held]") {
  const glm::vec3 centre(40.0f);
  levelset::SortedTileList list(1.5f);
  levelset::build_from_sdf(
      list, [&](glm::vec3 p) { return glm::length(p - centre) - 16.0f; }, glm::ivec3(12), glm::ivec3(68));
  CHECK(levelset::inside_beyond_band(list, glm::ivec3(40, 40, 40)));
  CHECK(levelset::inside_beyond_band(list, glm::ivec3(33, 44, 38)));
  CHECK_FALSE(levelset::inside_beyond_band(list, glm::ivec3(2, 40, 40)));
  CHECK_FALSE(levelset::inside_beyond_band(list, glm::ivec3(64, 40, 40)));
  CHECK_FALSE(levelset::inside_beyond_band(list, glm::ivec3(40, 40, 62)));
}
