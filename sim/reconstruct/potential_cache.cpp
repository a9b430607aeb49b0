#include "sim/reconstruct/potential_cache.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>

#include "sim/reconstruct/shepard_field.h"

namespace meniscus::sim::reconstruct {

using levelset::kTileSide;
using levelset::kTileVoxels;
using levelset::SortedTileList;
using levelset::TileCoord;
using levelset::TileEntry;

namespace {

// "No tile": the all-ones key. With 32-bit keys that is the top corner tile of the key range
// (voxels past 8188, 8188, 4092), which a reconstruction cube never reaches: the z range stops
// depth 13, and at depth 12 the cube spans 4096 voxels plus its margin.
constexpr levelset::TileKey kNoKey = ~levelset::TileKey(0);
constexpr int kFaces = 6;  // -x, +x, -y, +y, -z, +z

// Unique across caches, so a thread's memo of one cache never matches another that happens to
// live at the same address later.
uint64_t next_generation() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

std::optional<TileEntry> face_neighbour(const SortedTileList& list, TileCoord c, int face) {
  int* axis[3] = {&c.x, &c.y, &c.z};
  *axis[face / 2] += face % 2 ? 1 : -1;
  if (!levelset::representable(c)) return std::nullopt;
  const auto at = list.find(levelset::key_of(c));
  if (!at) return std::nullopt;
  return list.active()[*at];
}

// ∇P/|∇P|, or zero where the gradient is lost in P's rounding (see toward_samples).
glm::vec3 unit_or_zero(const PotentialSample& P) {
  const double length = glm::length(P.gradient);
  if (!(length > 1e-9 * P.value)) return glm::vec3(0.0f);
  return glm::vec3(P.gradient / length);
}

}  // namespace

PotentialCache::PotentialCache(const BarnesHut& potential, const ReconstructionFrame& frame, int level,
                               GradientScheme scheme, float gap_slowdown)
    : potential_evaluator_(potential), frame_(frame), level_(level), scheme_(scheme), gap_slowdown_(gap_slowdown) {}

float PotentialCache::gap_speed(double gradient_length, double value) const {
  if (gap_slowdown_ <= 0.0f || !(value > 0.0)) return 1.0f;
  return float(std::min(1.0, double(gap_slowdown_) * gradient_length / value));
}

void PotentialCache::evaluate_potential(const TileEntry& e, uint64_t& visited) {
  const TileCoord c = levelset::coord_of(e.key);
  static_assert(kTileVoxels == BarnesHut::kGroupSize, "a tile's voxels are walked as one group");
  std::array<glm::vec3, kTileVoxels> at;
  for (int z = 0; z < kTileSide; ++z)
    for (int y = 0; y < kTileSide; ++y)
      for (int x = 0; x < kTileSide; ++x) {
        const glm::vec3 voxel(c.x * kTileSide + x, c.y * kTileSide + y, c.z * kTileSide + z);
        at[SortedTileList::voxel_index(x, y, z)] = frame_.octree_of(voxel, level_);
      }
  PotentialCounters counters;
  float* out = potential_.data() + size_t(e.id) * kTileVoxels;
  if (scheme_ == GradientScheme::kCentral) {
    potential_evaluator_.potential_group(at, std::span(out, kTileVoxels), &counters);
  } else {
    std::array<PotentialSample, kTileVoxels> P;
    potential_evaluator_.sample_group(at, P, &counters);
    glm::vec3* velocity = velocity_.data() + size_t(e.id) * kTileVoxels;
    for (int i = 0; i < kTileVoxels; ++i) {
      out[i] = float(P[i].value);
      velocity[i] = unit_or_zero(P[i]) * gap_speed(glm::length(P[i].gradient), P[i].value);
    }
  }
  visited += counters.nodes_visited;
}

void PotentialCache::evaluate_velocity(const SortedTileList& list, const TileEntry& e) {
  const TileCoord c = levelset::coord_of(e.key);
  const float* neighbour[kFaces];
  for (int f = 0; f < kFaces; ++f) {
    const auto n = face_neighbour(list, c, f);
    neighbour[f] = n ? potential_.data() + size_t(n->id) * kTileVoxels : nullptr;
  }
  const float* own = potential_.data() + size_t(e.id) * kTileVoxels;
  glm::vec3* out = velocity_.data() + size_t(e.id) * kTileVoxels;
  for (int z = 0; z < kTileSide; ++z)
    for (int y = 0; y < kTileSide; ++y)
      for (int x = 0; x < kTileSide; ++x) {
        const glm::ivec3 local(x, y, z);
        const float centre = own[SortedTileList::voxel_index(x, y, z)];
        float minus[3], plus[3], spacing[3];
        for (int a = 0; a < 3; ++a) {
          int count = 0;
          for (int side = 0; side < 2; ++side) {
            glm::ivec3 l = local;
            l[a] += side ? 1 : -1;
            const float* tile = own;
            if (l[a] < 0 || l[a] >= kTileSide) {
              tile = neighbour[2 * a + side];
              l[a] = (l[a] + kTileSide) % kTileSide;
            }
            float& value = side ? plus[a] : minus[a];
            value = tile ? tile[SortedTileList::voxel_index(l.x, l.y, l.z)] : centre;
            count += tile != nullptr;
          }
          spacing[a] = float(std::max(count, 1));
        }
        glm::vec3 gradient;  // per level voxel
        for (int a = 0; a < 3; ++a) gradient[a] = (plus[a] - minus[a]) / spacing[a];
        const double finest_voxels = double(1 << (frame_.finest - level_));
        out[SortedTileList::voxel_index(x, y, z)] =
            toward_samples(minus, plus, spacing) * gap_speed(glm::length(gradient) / finest_voxels, centre);
      }
}

size_t PotentialCache::refresh(const SortedTileList& list) {
  const auto start = std::chrono::steady_clock::now();
  generation_ = next_generation();
  if (key_.size() < list.capacity()) {
    key_.resize(list.capacity(), kNoKey);
    potential_.resize(size_t(list.capacity()) * kTileVoxels);
    velocity_.resize(size_t(list.capacity()) * kTileVoxels);
  }
  std::vector<TileEntry> fresh;
  for (const TileEntry& e : list.active())
    if (key_[e.id] != e.key) fresh.push_back(e);
  std::atomic<uint64_t> visited{0};
  tbb::parallel_for(size_t(0), fresh.size(), [&](size_t i) {
    uint64_t v = 0;
    evaluate_potential(fresh[i], v);
    visited += v;
  });
  // V of the new tiles and of their face neighbours (which gain central differences).
  // The exact gradient was taken with P, voxel by voxel: nothing to redo.
  std::vector<TileEntry> moved;
  if (scheme_ == GradientScheme::kCentral) {
    moved = fresh;
    for (const TileEntry& e : fresh)
      for (int f = 0; f < kFaces; ++f)
        if (const auto n = face_neighbour(list, levelset::coord_of(e.key), f)) moved.push_back(*n);
  }
  std::sort(moved.begin(), moved.end(), [](const TileEntry& a, const TileEntry& b) { return a.key < b.key; });
  moved.erase(std::unique(moved.begin(), moved.end(), [](const TileEntry& a, const TileEntry& b) { return a.key == b.key; }),
              moved.end());
  tbb::parallel_for(size_t(0), moved.size(), [&](size_t i) { evaluate_velocity(list, moved[i]); });
  for (const TileEntry& e : fresh) key_[e.id] = e.key;
  stats_.tiles_evaluated += fresh.size();
  stats_.nodes_visited += visited;
  stats_.evaluate_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return fresh.size();
}

glm::vec3 PotentialCache::velocity(const SortedTileList& list, glm::ivec3 voxel) const {
  // The evolution asks voxel after voxel of one tile on each thread: remember the last tile
  // found rather than search the list for each.
  struct Memo {
    uint64_t generation = 0;
    levelset::TileKey key = kNoKey;
    uint32_t id = 0;
  };
  thread_local Memo memo;
  const glm::ivec3 tile = voxel / kTileSide;  // voxels of the band are never negative
  const levelset::TileKey key = levelset::key_of({tile.x, tile.y, tile.z});
  if (memo.generation != generation_ || memo.key != key) {
    const auto at = list.find(key);
    if (!at) return glm::vec3(0.0f);
    memo = {generation_, key, list.active()[*at].id};
  }
  const glm::ivec3 local = voxel - tile * kTileSide;
  return velocity_[size_t(memo.id) * kTileVoxels + SortedTileList::voxel_index(local.x, local.y, local.z)];
}

levelset::VelocityField PotentialCache::field(const SortedTileList& list) const {
  // The evolution asks at voxel positions, whole numbers and never negative in the band: adding
  // a half and truncating rounds them as glm::round does, without a libm call per voxel.
  return [this, &list](glm::vec3 voxel, float) { return velocity(list, glm::ivec3(voxel + 0.5f)); };
}

}  // namespace meniscus::sim::reconstruct
