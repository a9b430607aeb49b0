#include "sim/histopyramid/indexed_mesh.h"

#include <algorithm>
#include <fstream>

#include "engine/core/error.h"

namespace meniscus::sim {

double IndexedMesh::area() const {
  double total = 0.0;
  for (const glm::uvec3& t : triangles) {
    const glm::dvec3 a(positions[t.x]), b(positions[t.y]), c(positions[t.z]);
    total += 0.5 * glm::length(glm::cross(b - a, c - a));
  }
  return total;
}

EdgeCensus edge_census(const IndexedMesh& mesh) {
  // Each directed edge as (min, max, direction); sorting groups the uses of an undirected edge.
  std::vector<std::pair<uint64_t, int>> uses;
  uses.reserve(mesh.triangles.size() * 3);
  for (const glm::uvec3& t : mesh.triangles) {
    const uint32_t v[3] = {t.x, t.y, t.z};
    for (int i = 0; i < 3; ++i) {
      const uint32_t a = v[i], b = v[(i + 1) % 3];
      uses.push_back({(uint64_t(std::min(a, b)) << 32) | std::max(a, b), a < b ? 1 : -1});
    }
  }
  std::sort(uses.begin(), uses.end());
  EdgeCensus census;
  for (size_t i = 0; i < uses.size();) {
    size_t j = i;
    int direction = 0;
    while (j < uses.size() && uses[j].first == uses[i].first) direction += uses[j++].second;
    const size_t count = j - i;
    if (count == 1) ++census.boundary;
    else if (count == 2 && direction == 0) ++census.manifold;
    else ++census.non_manifold;
    i = j;
  }
  return census;
}

void write_mesh(const std::filesystem::path& path, const IndexedMesh& mesh) {
  const std::string suffix = path.extension().string();
  if (suffix != ".ply" && suffix != ".obj")
    throw InputError(path.string() + ": unknown mesh format '" + suffix + "' (use .ply or .obj)");
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(path.string() + ": cannot open for writing");
  if (suffix == ".obj") {
    out << "# Meniscus marching cubes: " << mesh.positions.size() << " vertices, " << mesh.triangles.size() << " triangles\n";
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      const glm::vec3 &p = mesh.positions[i], &n = mesh.normals[i];
      out << "v " << p.x << ' ' << p.y << ' ' << p.z << "\nvn " << n.x << ' ' << n.y << ' ' << n.z << '\n';
    }
    for (const glm::uvec3& t : mesh.triangles)
      out << "f " << t.x + 1 << "//" << t.x + 1 << ' ' << t.y + 1 << "//" << t.y + 1 << ' ' << t.z + 1 << "//" << t.z + 1 << '\n';
  } else {
    out << "ply\nformat binary_little_endian 1.0\ncomment Meniscus marching cubes\n"
        << "element vertex " << mesh.positions.size() << "\n"
        << "property float x\nproperty float y\nproperty float z\n"
        << "property float nx\nproperty float ny\nproperty float nz\n"
        << "element face " << mesh.triangles.size() << "\nproperty list uchar uint vertex_indices\nend_header\n";
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      out.write(reinterpret_cast<const char*>(&mesh.positions[i]), sizeof(glm::vec3));
      out.write(reinterpret_cast<const char*>(&mesh.normals[i]), sizeof(glm::vec3));
    }
    for (const glm::uvec3& t : mesh.triangles) {
      const uint8_t three = 3;
      out.write(reinterpret_cast<const char*>(&three), 1);
      out.write(reinterpret_cast<const char*>(&t), sizeof(glm::uvec3));
    }
  }
  if (!out) throw InputError(path.string() + ": write failed");
}

}  // namespace meniscus::sim
