#include "sim/levelset/mesh_level_set.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "engine/core/error.h"
#include "sim/levelset/tile_key.h"
#include "sim/levelset/triangle_distance.h"

namespace meniscus::sim::levelset {
namespace {

uint64_t edge_key(uint32_t a, uint32_t b) { return uint64_t(std::min(a, b)) << 32 | std::max(a, b); }

int floor_div4(int v) { return floor_div(v, kTileSide); }

// Angle-weighted pseudo-normals (Bærentzen & Aanæs 2005) of faces, vertices and edges.
struct PseudoNormals {
  std::vector<glm::vec3> face;
  std::vector<glm::vec3> vertex;
  std::vector<std::array<glm::vec3, 3>> edge;  // per triangle: AB, BC, CA
};

PseudoNormals pseudo_normals(const std::vector<glm::vec3>& v, const TriangleMesh& mesh) {
  PseudoNormals n;
  n.face.resize(mesh.triangles.size());
  n.vertex.assign(v.size(), glm::vec3(0.0f));
  std::unordered_map<uint64_t, glm::vec3> edge_sum;
  edge_sum.reserve(mesh.triangles.size() * 2);
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const glm::vec3 cross = glm::cross(v[tri[1]] - v[tri[0]], v[tri[2]] - v[tri[0]]);
    const float area2 = glm::length(cross);
    n.face[t] = area2 > 0.0f ? cross / area2 : glm::vec3(0.0f);  // degenerate: no say in signs
    for (int k = 0; k < 3; ++k) {
      const glm::vec3 e1 = v[tri[(k + 1) % 3]] - v[tri[k]], e2 = v[tri[(k + 2) % 3]] - v[tri[k]];
      const float l1 = glm::length(e1), l2 = glm::length(e2);
      if (l1 > 0.0f && l2 > 0.0f)
        n.vertex[tri[k]] += std::acos(std::clamp(glm::dot(e1, e2) / (l1 * l2), -1.0f, 1.0f)) * n.face[t];
      edge_sum[edge_key(tri[k], tri[(k + 1) % 3])] += n.face[t];
    }
  }
  n.edge.resize(mesh.triangles.size());
  for (size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k)
      n.edge[t][k] = edge_sum[edge_key(mesh.triangles[t][k], mesh.triangles[t][(k + 1) % 3])];
  return n;
}

glm::vec3 feature_normal(const PseudoNormals& n, const TriangleMesh& mesh, size_t t, TriangleFeature f) {
  switch (f) {
    case TriangleFeature::Face: return n.face[t];
    case TriangleFeature::VertexA: return n.vertex[mesh.triangles[t][0]];
    case TriangleFeature::VertexB: return n.vertex[mesh.triangles[t][1]];
    case TriangleFeature::VertexC: return n.vertex[mesh.triangles[t][2]];
    case TriangleFeature::EdgeAB: return n.edge[t][0];
    case TriangleFeature::EdgeBC: return n.edge[t][1];
    case TriangleFeature::EdgeCA: return n.edge[t][2];
  }
  return n.face[t];
}

// A tile's voxels during scan conversion: the smallest |distance| seen and its signed value.
struct BandTile {
  std::array<float, kTileVoxels> best;
  std::array<float, kTileVoxels> value;
  BandTile() {
    best.fill(std::numeric_limits<float>::infinity());
    value.fill(0.0f);
  }
};

}  // namespace

VoxelFrame fit_frame(const TriangleMesh& mesh, int resolution, int margin, const std::string& name) {
  if (mesh.vertices.empty() || mesh.triangles.empty()) throw InputError(name + ": the mesh has no triangles");
  glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
  for (const auto& tri : mesh.triangles)
    for (uint32_t i : tri) {
      const glm::vec3 p(mesh.vertices[i][0], mesh.vertices[i][1], mesh.vertices[i][2]);
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
    }
  const float longest = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  if (!(longest > 0.0f)) throw InputError(name + ": the mesh is a single point");
  VoxelFrame frame;
  frame.voxel_size = longest / float(resolution);
  frame.origin = lo - float(margin) * frame.voxel_size;
  frame.dims = glm::ivec3(glm::ceil((hi - lo) / frame.voxel_size)) + 2 * margin + 1;
  return frame;
}

void check_closed(const TriangleMesh& mesh, const std::string& name) {
  if (mesh.triangles.empty()) throw InputError(name + ": the mesh has no triangles");
  std::unordered_map<uint64_t, std::pair<uint32_t, uint32_t>> uses;  // (a < b uses, a > b uses)
  uses.reserve(mesh.triangles.size() * 2);
  for (const auto& tri : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const uint32_t a = tri[k], b = tri[(k + 1) % 3];
      auto& u = uses[edge_key(a, b)];
      (a < b ? u.first : u.second) += 1;
    }
  size_t holes = 0, non_manifold = 0, flipped = 0;
  for (const auto& [key, u] : uses) {
    const uint32_t total = u.first + u.second;
    if (total == 1) ++holes;
    else if (total > 2) ++non_manifold;
    else if (u.first != 1) ++flipped;
  }
  if (holes || non_manifold || flipped)
    throw InputError(name + ": not a closed, consistently oriented surface (" + std::to_string(holes) +
                     " boundary edges, " + std::to_string(non_manifold) + " non-manifold edges, " +
                     std::to_string(flipped) + " edges whose triangles disagree on orientation): a level set needs an inside");
}

MeshLevelSetStats build_from_mesh(SortedTileList& list, const TriangleMesh& mesh, const VoxelFrame& frame,
                                  const std::string& name) {
  check_closed(mesh, name);
  std::vector<glm::vec3> v(mesh.vertices.size());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = (glm::vec3(mesh.vertices[i][0], mesh.vertices[i][1], mesh.vertices[i][2]) - frame.origin) / frame.voxel_size;
  const PseudoNormals normals = pseudo_normals(v, mesh);
  const float gamma = list.gamma();
  const float band = gamma + 1.0f;  // a voxel's distance matters within γ; one more for the sign
  std::unordered_map<TileKey, BandTile> tiles;
  MeshLevelSetStats stats;
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    const glm::vec3 a = v[mesh.triangles[t][0]], b = v[mesh.triangles[t][1]], c = v[mesh.triangles[t][2]];
    const glm::ivec3 lo(glm::ceil(glm::min(a, glm::min(b, c)) - band));
    const glm::ivec3 hi(glm::floor(glm::max(a, glm::max(b, c)) + band));
    for (int z = lo.z; z <= hi.z; ++z)
      for (int y = lo.y; y <= hi.y; ++y)
        for (int x = lo.x; x <= hi.x; ++x) {
          const glm::vec3 p(x, y, z);
          const ClosestPoint q = closest_point_on_triangle(p, a, b, c);
          const float d = glm::length(p - q.point);
          if (d >= band) continue;
          const TileCoord tc{floor_div4(x), floor_div4(y), floor_div4(z)};
          require_representable(tc, name + ": level set domain");
          BandTile& tile = tiles[key_of(tc)];
          const int k = SortedTileList::voxel_index(x - tc.x * kTileSide, y - tc.y * kTileSide, z - tc.z * kTileSide);
          if (d >= tile.best[k]) continue;
          if (!std::isfinite(tile.best[k])) ++stats.band_voxels;
          tile.best[k] = d;
          const float side = glm::dot(p - q.point, feature_normal(normals, mesh, t, q.feature));
          tile.value[k] = side < 0.0f ? -d : d;
        }
  }
  std::vector<TileKey> keys;
  for (const auto& [key, tile] : tiles)
    if (std::any_of(tile.best.begin(), tile.best.end(), [&](float d) { return d < gamma; })) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  list.insert(keys, gamma);
  for (const TileEntry& e : list.active()) {
    const BandTile& band_tile = tiles.at(e.key);
    float out[kTileVoxels];
    for (int k = 0; k < kTileVoxels; ++k) {
      if (std::isfinite(band_tile.best[k])) {
        out[k] = std::clamp(band_tile.value[k], -gamma, gamma);
        continue;
      }
      // Farther than the band: no surface between it and the nearest computed voxel of the
      // tile (one would have put a closer voxel in the band), so it shares that voxel's side.
      int nearest = -1, nearest_d2 = 1 << 30;
      for (int j = 0; j < kTileVoxels; ++j) {
        if (!std::isfinite(band_tile.best[j])) continue;
        const int dx = j % 4 - k % 4, dy = j / 4 % 4 - k / 4 % 4, dz = j / 16 - k / 16;
        const int d2 = dx * dx + dy * dy + dz * dz;
        if (d2 < nearest_d2) nearest_d2 = d2, nearest = j;
      }
      out[k] = band_tile.value[nearest] < 0.0f ? -gamma : gamma;
    }
    list.write(e.id, out);
    list.update_flags(e.id);
  }
  stats.tiles = list.size();
  return stats;
}

}  // namespace meniscus::sim::levelset
