#include "sim/levelset/vdb_io.h"

#include <openvdb/openvdb.h>
#include <openvdb/tools/SignedFloodFill.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/core/error.h"

namespace meniscus::sim::levelset {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw InputError(path.string() + ": " + what);
}

}  // namespace

bool vdb_supported() { return true; }

LevelSetFile read_vdb(const std::filesystem::path& path) {
  openvdb::initialize();
  if (!std::filesystem::exists(path)) fail(path, "no such file");
  openvdb::GridPtrVecPtr grids;
  try {
    openvdb::io::File file(path.string());
    file.open();
    grids = file.getGrids();
    file.close();
  } catch (const openvdb::Exception& error) {
    fail(path, std::string("cannot read .vdb (") + error.what() + ")");
  }
  openvdb::FloatGrid::Ptr grid;
  for (const auto& base : *grids)
    if ((grid = openvdb::gridPtrCast<openvdb::FloatGrid>(base))) break;
  if (!grid) fail(path, "holds no float grid");
  if (grid->getGridClass() != openvdb::GRID_LEVEL_SET)
    fail(path, "grid '" + grid->getName() + "' is not a level set (class " +
                   openvdb::GridBase::gridClassToString(grid->getGridClass()) + ")");
  if (!grid->hasUniformVoxels()) fail(path, "grid '" + grid->getName() + "' has non-uniform voxels");

  const float gamma = grid->background();
  if (!(gamma > 0.0f) || !std::isfinite(gamma)) fail(path, "level set background must be a positive width");
  const openvdb::CoordBBox box = grid->evalActiveVoxelBoundingBox();
  LevelSetFile out;
  out.voxel_size = float(grid->voxelSize()[0]);
  out.list = std::make_unique<SortedTileList>(gamma);
  if (grid->activeVoxelCount() == 0) return out;
  // Our voxel 0 sits on a tile boundary at or below the band's lowest corner.
  out.voxel_offset = glm::ivec3(floor_div(box.min().x(), kTileSide), floor_div(box.min().y(), kTileSide),
                                floor_div(box.min().z(), kTileSide)) * kTileSide;

  std::set<TileKey> keys;
  for (auto it = grid->cbeginValueOn(); it; ++it) {
    const openvdb::Coord c = it.getCoord();
    const TileCoord tile{(c.x() - out.voxel_offset.x) / kTileSide, (c.y() - out.voxel_offset.y) / kTileSide,
                         (c.z() - out.voxel_offset.z) / kTileSide};
    if (!representable(tile))
      fail(path, "narrow band spans more than " + std::to_string(8 * sizeof(TileKey)) + "-bit tile keys allow (" +
                     std::to_string((kMaxTile.x + 1) * kTileSide) + " x " + std::to_string((kMaxTile.y + 1) * kTileSide) +
                     " x " + std::to_string((kMaxTile.z + 1) * kTileSide) + " voxels)");
    keys.insert(key_of(tile));
  }
  out.list->insert(std::vector<TileKey>(keys.begin(), keys.end()), gamma);
  auto accessor = grid->getConstAccessor();
  for (const TileEntry& e : out.list->active()) {
    const TileCoord t = coord_of(e.key);
    float* values = out.list->tile(e.id);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x) {
          const openvdb::Coord c(out.voxel_offset.x + t.x * kTileSide + x, out.voxel_offset.y + t.y * kTileSide + y,
                                 out.voxel_offset.z + t.z * kTileSide + z);
          const float v = accessor.getValue(c);
          if (!std::isfinite(v)) fail(path, "non-finite value at voxel (" + std::to_string(c.x()) + ", " +
                                                std::to_string(c.y()) + ", " + std::to_string(c.z()) + ")");
          values[SortedTileList::voxel_index(x, y, z)] = v;
        }
    out.list->update_flags(e.id);
  }
  return out;
}

void write_vdb(const std::filesystem::path& path, const SortedTileList& list, glm::ivec3 voxel_offset, float voxel_size) {
  openvdb::initialize();
  auto grid = openvdb::FloatGrid::create(list.gamma());
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setName("surface");
  grid->setTransform(openvdb::math::Transform::createLinearTransform(voxel_size));
  auto accessor = grid->getAccessor();
  for (const TileEntry& e : list.active()) {
    const TileCoord t = coord_of(e.key);
    const float* values = list.tile(e.id);
    for (int z = 0; z < kTileSide; ++z)
      for (int y = 0; y < kTileSide; ++y)
        for (int x = 0; x < kTileSide; ++x)
          accessor.setValueOn(openvdb::Coord(voxel_offset.x + t.x * kTileSide + x, voxel_offset.y + t.y * kTileSide + y,
                                             voxel_offset.z + t.z * kTileSide + z),
                              values[SortedTileList::voxel_index(x, y, z)]);
  }
  // Off the band OpenVDB stores only the background; its sign says inside or outside. Without
  // the flood fill every voxel off the band would read +γ, outside, even deep inside, and a
  // reader whose tiles straddle the band's edge (ours, when the offset moves the tile grid)
  // would find surfaces that are not there.
  openvdb::tools::signedFloodFill(grid->tree());
  try {
    openvdb::io::File file(path.string());
    file.write({grid});
    file.close();
  } catch (const openvdb::Exception& error) {
    fail(path, std::string("cannot write .vdb (") + error.what() + ")");
  }
}

}  // namespace meniscus::sim::levelset
