#pragma once
// OpenVDB .vdb files for level sets (Debian's libopenvdb-dev, a product dependency).
//
// Our tiles need non-negative tile coordinates; a .vdb level set is usually centred on the
// origin, so files carry an integer voxel offset: our voxel v is OpenVDB voxel v + offset.
#include <filesystem>
#include <memory>

#include <glm/glm.hpp>

#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

struct LevelSetFile {
  std::unique_ptr<SortedTileList> list;
  glm::ivec3 voxel_offset{0};  // OpenVDB coordinate of our voxel (0, 0, 0)
  float voxel_size = 1.0f;
};

// Reads the first float grid of class level set. Errors (InputError naming the file): missing
// or unreadable file, no float grid, a grid that is not a level set, non-uniform voxels, a
// narrow band too large for 32-bit tile keys.
LevelSetFile read_vdb(const std::filesystem::path& path);

// Writes `list` as a level-set FloatGrid named "surface": every voxel of every active tile is an
// active voxel, background γ, voxel size `voxel_size`.
void write_vdb(const std::filesystem::path& path, const SortedTileList& list, glm::ivec3 voxel_offset,
               float voxel_size = 1.0f);

// False when Meniscus was built without OpenVDB (then both calls throw InputError saying so).
bool vdb_supported();

}  // namespace meniscus::sim::levelset
