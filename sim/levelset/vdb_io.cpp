#include "sim/levelset/vdb_io.h"

#include <openvdb/openvdb.h>
#include <openvdb/tools/SignedFloodFill.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

#include "engine/core/contained_check.h"
#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus::sim::levelset {
namespace {

using limits::fail;

constexpr unsigned kCheckSeconds = 300;  // a check taking longer is a hang on a corrupt file

// A .vdb level set reduced to plain data: the tiles the band touches and their voxels. Decoding
// is the only part that runs OpenVDB on the file's bytes; it runs first in a checking process.
struct DecodedLevelSet {
  float gamma = 0.0f;
  float voxel_size = 1.0f;
  glm::ivec3 voxel_offset{0};
  std::vector<TileKey> keys;  // sorted
  std::vector<float> values;  // kTileVoxels per key, in voxel_index order
};

int64_t floor_div64(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Serial throughout (no OpenVDB tool that threads): it must also run in a forked child.
DecodedLevelSet decode(const std::filesystem::path& path) {
  openvdb::initialize();
  openvdb::GridPtrVecPtr grids;
  try {
    openvdb::io::File file(path.string());
    file.open(/*delayLoad=*/false);  // every leaf decoded here, inside the try, not later on access
    grids = file.getGrids();
    file.close();
  } catch (const std::exception& error) {  // openvdb::Exception, and std::bad_alloc from sizes in the file
    fail(path, std::string("cannot read .vdb (") + error.what() + ")");
  }
  openvdb::FloatGrid::Ptr grid;
  for (const auto& base : *grids)
    if ((grid = openvdb::gridPtrCast<openvdb::FloatGrid>(base))) break;
  if (!grid) fail(path, "holds no float grid");
  const std::string name = "grid '" + grid->getName() + "'";
  if (grid->getGridClass() != openvdb::GRID_LEVEL_SET)
    fail(path, name + " is not a level set (class " + openvdb::GridBase::gridClassToString(grid->getGridClass()) + ")");
  if (!grid->hasUniformVoxels()) fail(path, name + " has non-uniform voxels");
  DecodedLevelSet out;
  out.gamma = grid->background();
  if (!(out.gamma > 0.0f) || !std::isfinite(out.gamma)) fail(path, "level set background must be a positive width");
  const double voxel_size = grid->voxelSize()[0];
  if (!(voxel_size >= limits::kMinSpacing && voxel_size <= limits::kMaxSpacing))
    fail(path, name + ": field 'voxel size': " + limits::number_text(voxel_size) + " is outside [" +
                   limits::number_text(limits::kMinSpacing) + ", " + limits::number_text(limits::kMaxSpacing) + "]");
  out.voxel_size = float(voxel_size);

  // Active voxels, tiles expanded, against the policy before anything is built from them: one
  // active tile of an upper node stands for up to 4096³ voxels.
  const openvdb::FloatTree& tree = grid->tree();
  uint64_t active = 0;
  openvdb::CoordBBox box;
  auto tiles = tree.cbeginValueOn();
  tiles.setMaxDepth(openvdb::FloatTree::ValueOnCIter::LEAF_DEPTH - 1);  // tiles only
  for (; tiles; ++tiles) {
    active += tiles.getVoxelCount();
    openvdb::CoordBBox tile_box;
    tiles.getBoundingBox(tile_box);
    box.expand(tile_box);
    limits::check_declared(path, "active voxels", active, limits::kMaxLevelSetVoxels, "active voxels");
  }
  for (auto leaf = tree.cbeginLeaf(); leaf; ++leaf) {
    active += leaf->onVoxelCount();
    limits::check_declared(path, "active voxels", active, limits::kMaxLevelSetVoxels, "active voxels");
    openvdb::CoordBBox leaf_box;
    if (leaf->onVoxelCount()) {
      leaf->evalActiveBoundingBox(leaf_box, /*visitVoxels=*/true);
      box.expand(leaf_box);
    }
  }
  if (active == 0) return out;
  // Our voxel 0 sits on a tile boundary at or below the band's lowest corner.
  const auto corner = [](int64_t c) { return floor_div64(c, kTileSide) * kTileSide; };
  if (corner(box.min().x()) < INT32_MIN || corner(box.min().y()) < INT32_MIN || corner(box.min().z()) < INT32_MIN)
    fail(path, "narrow band reaches below the lowest representable voxel");
  out.voxel_offset = glm::ivec3(int(corner(box.min().x())), int(corner(box.min().y())), int(corner(box.min().z())));
  const auto tile_of = [&](const openvdb::Coord& c) {
    const TileCoord tile{int((int64_t(c.x()) - out.voxel_offset.x) / kTileSide),
                         int((int64_t(c.y()) - out.voxel_offset.y) / kTileSide),
                         int((int64_t(c.z()) - out.voxel_offset.z) / kTileSide)};
    if (!representable(tile))
      fail(path, "narrow band spans more than " + std::to_string(8 * sizeof(TileKey)) + "-bit tile keys allow (" +
                     std::to_string((kMaxTile.x + 1) * kTileSide) + " x " + std::to_string((kMaxTile.y + 1) * kTileSide) +
                     " x " + std::to_string((kMaxTile.z + 1) * kTileSide) + " voxels)");
    return tile;
  };
  tile_of(box.max());  // the far corner first: the whole band is representable, so every tile below is

  std::set<TileKey> keys;
  auto voxels = tree.cbeginValueOn();
  voxels.setMinDepth(openvdb::FloatTree::ValueOnCIter::LEAF_DEPTH);  // leaf voxels only
  for (; voxels; ++voxels) keys.insert(key_of(tile_of(voxels.getCoord())));
  tiles = tree.cbeginValueOn();
  tiles.setMaxDepth(openvdb::FloatTree::ValueOnCIter::LEAF_DEPTH - 1);
  for (; tiles; ++tiles) {  // an active tile covers all of our tiles it overlaps
    openvdb::CoordBBox tile_box;
    tiles.getBoundingBox(tile_box);
    const TileCoord lo = tile_of(tile_box.min()), hi = tile_of(tile_box.max());
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) keys.insert(key_of(TileCoord{x, y, z}));
  }
  out.keys.assign(keys.begin(), keys.end());
  limits::resize_or_fail(out.values, uint64_t(out.keys.size()) * kTileVoxels, path, "the level set's tiles");
  auto accessor = grid->getConstAccessor();
  for (size_t k = 0; k < out.keys.size(); ++k) {
    const TileCoord t = coord_of(out.keys[k]);
    float* values = out.values.data() + k * kTileVoxels;
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
  }
  return out;
}

// OpenVDB is not hardened against corrupt files (heap corruption in blosc, sizes taken from the
// file, crashes in the tree's destructor): the file is decoded, checked and destroyed in a fresh
// process first (engine/core/contained_check.h: a bare fork of this process could deadlock on a
// lock another thread held), and only read here when that process ended cleanly. The same code
// on the same bytes then takes the same path.
const ContainedCheck decode_check("vdb-decode", [](const std::string& path) {
  decode(path);  // throws InputError for what it can name; destroyed on return
  return std::string();
});

void check_in_child(const std::filesystem::path& path, uint64_t file_bytes) {
  // What decoding a valid file of this size can need, never more than half of what is free:
  // OpenVDB's tree, a leaf (2 KiB in memory) taking at least ~16 bytes on disk; our copy of the
  // tiles, which the policy bounds before allocating (one active tile may stand for many); and
  // headroom. A corrupt file asking OpenVDB for more (mutated sizes asked for 4 GiB and had the
  // process at 13 GB after 28 s) ends in an allocation failure: a named error, in a second.
  const uint64_t policy = 128 * file_bytes + limits::kMaxLevelSetVoxels * sizeof(float) + (256u << 20);
  const uint64_t memory = std::min<uint64_t>(policy, std::max<uint64_t>(limits::available_memory_bytes() / 2, 256u << 20));
  const ContainedOutcome outcome = decode_check.run(path.string(), kCheckSeconds, memory);
  switch (outcome.kind) {
    case ContainedOutcome::Kind::Succeeded:
      return;
    case ContainedOutcome::Kind::Failed:
      if (outcome.message.rfind(path.string() + ": ", 0) == 0) throw InputError(outcome.message);
      fail(path, "cannot read .vdb (" + outcome.message + ")");
    case ContainedOutcome::Kind::Crashed:
      fail(path, "corrupt .vdb: reading it crashed the process that checks it (" + outcome.message +
                     "); nothing was read");
    case ContainedOutcome::Kind::TimedOut:
      fail(path, "corrupt or too large .vdb: reading it " + outcome.message + " in the process that checks it");
  }
}

}  // namespace

bool vdb_supported() { return true; }

LevelSetFile read_vdb(const std::filesystem::path& path) {
  const uint64_t bytes = limits::require_regular_file(path, ".vdb level set");
  limits::check_declared(path, "file size", bytes, limits::kMaxVdbFileBytes, "bytes");
  check_in_child(path, bytes);
  const DecodedLevelSet decoded = decode(path);
  LevelSetFile out;
  out.voxel_size = decoded.voxel_size;
  out.voxel_offset = decoded.voxel_offset;
  out.list = std::make_unique<SortedTileList>(decoded.gamma);
  if (decoded.keys.empty()) return out;
  out.list->insert(decoded.keys, decoded.gamma);
  for (const TileEntry& e : out.list->active()) {
    const size_t k = size_t(std::lower_bound(decoded.keys.begin(), decoded.keys.end(), e.key) - decoded.keys.begin());
    out.list->write(e.id, decoded.values.data() + k * kTileVoxels);
    out.list->update_flags(e.id);
  }
  return out;
}

void write_vdb(const std::filesystem::path& path, const SortedTileList& list, glm::ivec3 voxel_offset, float voxel_size) {
  openvdb::initialize();
  // OpenVDB's transform throws an anonymous ArithmeticError for a (near-)zero or NaN scale.
  if (!(voxel_size >= limits::kMinSpacing && voxel_size <= limits::kMaxSpacing))
    fail(path, "voxel size " + limits::number_text(voxel_size) + " is outside [" + limits::number_text(limits::kMinSpacing) +
                   ", " + limits::number_text(limits::kMaxSpacing) + "] that a .vdb transform can hold");
  auto grid = openvdb::FloatGrid::create(list.gamma());
  grid->setGridClass(openvdb::GRID_LEVEL_SET);
  grid->setName("surface");
  grid->setTransform(openvdb::math::Transform::createLinearTransform(voxel_size));
  auto accessor = grid->getAccessor();
  for (const TileEntry& e : list.active()) {
    const TileCoord t = coord_of(e.key);
    float values[kTileVoxels];
    list.read(e.id, values);
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
