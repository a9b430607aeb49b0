#pragma once
// The initial level set of a segmentation: the union of seed spheres ("bubbles", Lefohn &
// Whitaker §4), φ = min_i (|x − c_i| − r_i) clamped to ±γ, negative inside, in level-set
// voxels. The user places them inside the structure to segment; the data term grows them.
#include <span>
#include <string>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct SeedSphere {
  glm::vec3 centre{0.0f};  // level-set voxels
  float radius = 2.0f;     // voxels, > 0
};

// Fills `list` (empty) with the band around the union of `seeds`: every tile within γ of a
// sphere's surface, then one tile management so the band's neighbours exist. InputError
// naming `what`: no seeds, a radius that is not positive and finite, a sphere reaching below
// voxel 0 or beyond the tile keys.
void build_from_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what);

// Adds a sphere to a level set that already holds a surface (a seed placed mid-run): φ becomes
// min(φ, the sphere's distance) over the tiles the sphere reaches, missing tiles are created,
// and the tiles are managed. InputError as build_from_spheres.
void add_sphere(SortedTileList& list, const SeedSphere& seed, const std::string& what);
// The same for many spheres at once, with one tile management (an empty span changes nothing
// but the management).
void add_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what);
// The spheres made outside: φ = max(φ, r_i − |x − c_i|), as add_spheres otherwise.
void remove_spheres(SortedTileList& list, std::span<const SeedSphere> seeds, const std::string& what);

}  // namespace meniscus::sim::levelset
