#include "sim/histopyramid/record_mesh.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <stdexcept>

#include "sim/histopyramid/mc_tables.h"

namespace meniscus::sim {
namespace {

// An id per cube edge of record space, equal for every cell sharing the edge: the edge's lower
// end (each coordinate at most 65536) and its axis.
uint64_t edge_id(glm::uvec3 lower, uint32_t axis) {
  constexpr uint64_t kSide = uint64_t(kMaxRecordCoordinate) + 2;
  return ((uint64_t(lower.z) * kSide + lower.y) * kSide + lower.x) * 3 + axis;
}

struct EdgePoint {
  glm::vec3 local;   // in the cell, [0, 1]^3
  glm::uvec3 lower;  // the edge's lower end in record space
  glm::vec3 along;   // from the lower end to the point
};

// Where the surface crosses edge `edge` of `record`. The decoded values of the edge's two
// corners (lower first) are the same in every cell that shares it, so is the point.
EdgePoint edge_point(const CubeRecord& record, const float f[8], int edge) {
  const mc::Edge& e = mc::edges()[edge];
  const float t = f[e.a] / (f[e.a] - f[e.b]);  // decoded values are never 0, and differ in sign here
  glm::vec3 along(0.0f);
  along[e.axis] = t;
  return {glm::vec3(mc::corner_offset(e.a)) + along, record_position(record) + mc::corner_offset(e.a), along};
}

}  // namespace

glm::vec3 trilinear_gradient(const float f[8], glm::vec3 p) {
  const glm::vec3 q = 1.0f - p;
  // Differences along each axis, interpolated bilinearly in the other two.
  const float gx = q.y * q.z * (f[1] - f[0]) + p.y * q.z * (f[3] - f[2]) + q.y * p.z * (f[5] - f[4]) + p.y * p.z * (f[7] - f[6]);
  const float gy = q.x * q.z * (f[2] - f[0]) + p.x * q.z * (f[3] - f[1]) + q.x * p.z * (f[6] - f[4]) + p.x * p.z * (f[7] - f[5]);
  const float gz = q.x * q.y * (f[4] - f[0]) + p.x * q.y * (f[5] - f[1]) + q.x * p.y * (f[6] - f[2]) + p.x * p.y * (f[7] - f[3]);
  return {gx, gy, gz};
}

uint64_t record_triangle_count(const CubeRecordSet& set) {
  uint64_t total = 0;
  for (const CubeRecord& r : set.records) total += mc::cases()[r.mc_case].triangles;
  return total;
}

IndexedMesh extract_record_mesh(const CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  const auto& records = set.records;
  // Where each record's triangle corners start in the soup.
  std::vector<uint64_t> first(records.size() + 1, 0);
  for (size_t i = 0; i < records.size(); ++i) first[i + 1] = first[i] + 3u * mc::cases()[records[i].mc_case].triangles;
  const uint64_t corners = first.back();
  if (corners / 3 >= (uint64_t(1) << 32)) throw std::length_error("extract_record_mesh: over 2^32 triangles");

  // Each soup corner as (edge id, corner index); sorting groups the corners of a shared vertex.
  std::vector<std::pair<uint64_t, uint32_t>> keyed(corners);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, records.size()), [&](const tbb::blocked_range<size_t>& range) {
    for (size_t i = range.begin(); i != range.end(); ++i) {
      const mc::Case& c = mc::cases()[records[i].mc_case];
      const glm::uvec3 base = record_position(records[i]);
      for (int k = 0; k < 3 * c.triangles; ++k) {
        const mc::Edge& e = mc::edges()[c.edges[k]];
        keyed[first[i] + k] = {edge_id(base + mc::corner_offset(e.a), e.axis), uint32_t(first[i] + k)};
      }
    }
  });
  tbb::parallel_sort(keyed.begin(), keyed.end());

  // The record each soup corner came from (for its values), by the corner's position in the soup.
  std::vector<uint32_t> record_of(corners);
  for (size_t i = 0; i < records.size(); ++i)
    std::fill(record_of.begin() + ptrdiff_t(first[i]), record_of.begin() + ptrdiff_t(first[i + 1]), uint32_t(i));

  IndexedMesh mesh;
  std::vector<uint32_t> vertex_of(corners);
  for (size_t j = 0; j < keyed.size();) {
    size_t end = j;
    glm::vec3 gradient(0.0f), position(0.0f);
    while (end < keyed.size() && keyed[end].first == keyed[j].first) {
      const uint32_t corner = keyed[end].second;
      const CubeRecord& r = records[record_of[corner]];
      const mc::Case& c = mc::cases()[r.mc_case];
      float f[8];
      for (int k = 0; k < 8; ++k) f[k] = decode_corner(r.corners[k], set.gamma);
      const EdgePoint point = edge_point(r, f, c.edges[corner - first[record_of[corner]]]);
      // From the edge's lower end (integer, the same in every cell), as the shaders do.
      if (end == j) position = origin + voxel_size * (glm::vec3(point.lower) + point.along);
      gradient += trilinear_gradient(f, point.local);
      vertex_of[corner] = uint32_t(mesh.positions.size());
      ++end;
    }
    mesh.positions.push_back(position);
    const float length = glm::length(gradient);
    mesh.normals.push_back(length > 0.0f ? gradient / length : glm::vec3(0.0f, 0.0f, 1.0f));
    j = end;
  }
  mesh.triangles.resize(corners / 3);
  for (uint64_t t = 0; t < corners / 3; ++t)
    mesh.triangles[t] = {vertex_of[3 * t], vertex_of[3 * t + 1], vertex_of[3 * t + 2]};
  return mesh;
}

}  // namespace meniscus::sim
