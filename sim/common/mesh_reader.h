#pragma once
// Reading triangle meshes and point clouds: PLY (ASCII and binary, either byte order, any scalar
// property types, polygons fan-triangulated) and Wavefront OBJ (v and f lines). Every problem
// (unsupported format, truncated data, an index out of range, a NaN coordinate) is an InputError
// naming the file and what is wrong.
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace meniscus::sim {

struct TriangleMesh {
  std::vector<std::array<float, 3>> vertices;
  std::vector<std::array<uint32_t, 3>> triangles;
};

// .ply or .obj by extension. Points-only files give a mesh without triangles.
TriangleMesh read_mesh(const std::filesystem::path& file);

}  // namespace meniscus::sim
