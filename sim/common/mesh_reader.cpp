#include "sim/common/mesh_reader.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus::sim {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw InputError(file.string() + ": " + what);
}

enum class Scalar { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

bool scalar_from_name(const std::string& name, Scalar& out) {
  static const std::pair<const char*, Scalar> kNames[] = {
      {"char", Scalar::Int8},     {"int8", Scalar::Int8},     {"uchar", Scalar::UInt8},   {"uint8", Scalar::UInt8},
      {"short", Scalar::Int16},   {"int16", Scalar::Int16},   {"ushort", Scalar::UInt16}, {"uint16", Scalar::UInt16},
      {"int", Scalar::Int32},     {"int32", Scalar::Int32},   {"uint", Scalar::UInt32},   {"uint32", Scalar::UInt32},
      {"float", Scalar::Float32}, {"float32", Scalar::Float32}, {"double", Scalar::Float64}, {"float64", Scalar::Float64}};
  for (const auto& [n, s] : kNames)
    if (name == n) return out = s, true;
  return false;
}

size_t scalar_size(Scalar s) {
  switch (s) {
    case Scalar::Int8: case Scalar::UInt8: return 1;
    case Scalar::Int16: case Scalar::UInt16: return 2;
    case Scalar::Int32: case Scalar::UInt32: case Scalar::Float32: return 4;
    case Scalar::Float64: return 8;
  }
  return 0;
}

struct Property {
  std::string name;
  Scalar type = Scalar::Float32;
  bool list = false;
  Scalar count_type = Scalar::UInt8;
};

struct Element {
  std::string name;
  uint64_t count = 0;
  std::vector<Property> properties;
};

// "element vertex 8": the count as written, a non-negative integer (istream would read "-1"
// into an unsigned as 2^64 - 1), within the policy for its kind of element.
uint64_t element_count(const std::filesystem::path& file, const std::string& name, const std::string& text) {
  const std::string field = "element " + name;
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    fail(file, "field '" + field + "': expected a count (a non-negative integer), got '" + text + "'");
  const uint64_t limit = name == "vertex" ? limits::kMaxMeshVertices : limits::kMaxMeshFaces;
  const std::string what = name == "vertex" ? "vertices" : "items";
  // Over 19 digits it does not fit 64 bits; it is over the limit either way.
  const uint64_t count = text.size() > 19 ? UINT64_MAX : std::stoull(text);
  limits::check_declared(file, field, text, count, limit, what);
  return count;
}

// Bytes the smallest record of `e` takes in the file: each scalar in binary (a list at least its
// count), at least two characters ("0 ") per value in ASCII.
uint64_t min_record_bytes(const Element& e, bool ascii) {
  uint64_t bytes = 0;
  for (const Property& p : e.properties) bytes += ascii ? 2 : scalar_size(p.list ? p.count_type : p.type);
  return bytes;
}

// Reads one scalar in the file's encoding, as a double.
class PlyReader {
 public:
  PlyReader(std::istream& in, const std::filesystem::path& file, bool ascii, bool swap)
      : in_(in), file_(file), ascii_(ascii), swap_(swap) {}

  double read(Scalar type) {
    if (ascii_) {
      double v;
      if (!(in_ >> v)) fail(file_, "truncated or malformed ASCII data");
      return v;
    }
    unsigned char bytes[8];
    const size_t n = scalar_size(type);
    if (!in_.read(reinterpret_cast<char*>(bytes), std::streamsize(n))) fail(file_, "truncated binary data");
    if (swap_) std::reverse(bytes, bytes + n);
    switch (type) {
      case Scalar::Int8: return double(int8_t(bytes[0]));
      case Scalar::UInt8: return double(bytes[0]);
      case Scalar::Int16: { int16_t v; std::memcpy(&v, bytes, 2); return v; }
      case Scalar::UInt16: { uint16_t v; std::memcpy(&v, bytes, 2); return v; }
      case Scalar::Int32: { int32_t v; std::memcpy(&v, bytes, 4); return v; }
      case Scalar::UInt32: { uint32_t v; std::memcpy(&v, bytes, 4); return v; }
      case Scalar::Float32: { float v; std::memcpy(&v, bytes, 4); return v; }
      case Scalar::Float64: { double v; std::memcpy(&v, bytes, 8); return v; }
    }
    return 0.0;
  }

 private:
  std::istream& in_;
  const std::filesystem::path& file_;
  bool ascii_, swap_;
};

void add_polygon(const std::filesystem::path& file, const std::vector<int64_t>& corners, size_t vertex_count,
                 uint64_t face, TriangleMesh& mesh) {
  for (int64_t c : corners)
    if (c < 0 || uint64_t(c) >= vertex_count)
      fail(file, "face " + std::to_string(face) + " refers to vertex " + std::to_string(c) + " of " +
                     std::to_string(vertex_count));
  for (size_t k = 1; k + 1 < corners.size(); ++k)
    mesh.triangles.push_back({uint32_t(corners[0]), uint32_t(corners[k]), uint32_t(corners[k + 1])});
}

TriangleMesh read_ply(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, "cannot open");
  std::string line;
  std::getline(in, line);
  if (line.rfind("ply", 0) != 0) fail(file, "not a PLY file (no 'ply' magic)");
  bool ascii = false, swap = false, have_format = false, have_end = false;
  std::vector<Element> elements;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word == "end_header") {
      have_end = true;
      break;
    }
    if (word == "format") {
      std::string format;
      words >> format;
      have_format = true;
      ascii = format == "ascii";
      const bool little = format == "binary_little_endian", big = format == "binary_big_endian";
      if (!ascii && !little && !big) fail(file, "unsupported PLY format '" + format + "'");
      swap = (little && std::endian::native == std::endian::big) || (big && std::endian::native == std::endian::little);
    } else if (word == "element") {
      Element e;
      std::string count;
      words >> e.name >> count;
      if (!words) fail(file, "malformed element line '" + line + "'");
      e.count = element_count(file, e.name, count);
      elements.push_back(e);
    } else if (word == "property") {
      if (elements.empty()) fail(file, "property before any element");
      Property p;
      std::string type;
      words >> type;
      if (type == "list") {
        std::string count_type, item_type;
        words >> count_type >> item_type >> p.name;
        p.list = true;
        if (!scalar_from_name(count_type, p.count_type) || !scalar_from_name(item_type, p.type))
          fail(file, "unsupported list types in '" + line + "'");
      } else {
        words >> p.name;
        if (!scalar_from_name(type, p.type)) fail(file, "unsupported property type '" + type + "'");
      }
      elements.back().properties.push_back(p);
      limits::check_declared(file, "element " + elements.back().name, elements.back().properties.size(),
                             limits::kMaxPlyElementProperties, "properties");
    }
  }
  if (!have_format) fail(file, "header has no format line");
  if (!have_end) fail(file, "header has no end_header line");
  // Declared counts against the bytes the file holds, before anything is allocated for them.
  const std::streamoff header_end = in.tellg();
  const uint64_t data_bytes = header_end < 0 ? 0 : limits::require_regular_file(file, "mesh") - uint64_t(header_end);
  uint64_t need = 0;
  for (const Element& e : elements) {
    need += e.count * min_record_bytes(e, ascii);  // counts and properties are bounded: no overflow
    if (need > data_bytes + 1)
      fail(file, "field 'element " + e.name + "': declares " + std::to_string(e.count) + " items, but the " +
                     std::to_string(data_bytes) + " bytes after the header cannot hold them (truncated)");
  }
  PlyReader reader(in, file, ascii, swap);
  // A list's length, read from the file: an integer in [0, limit].
  const auto list_length = [&](const Property& p, uint64_t limit) {
    const double n = reader.read(p.count_type);
    if (!(n >= 0.0 && n <= double(limit) && n == std::floor(n)))
      fail(file, "property '" + p.name + "': list length " + std::to_string(n) + " is not an integer in [0, " +
                     std::to_string(limit) + "]");
    return uint64_t(n);
  };
  TriangleMesh mesh;
  uint64_t vertex_count = 0;
  for (const Element& e : elements) {
    if (e.name == "vertex") {
      int axis_of[3] = {-1, -1, -1};
      for (size_t k = 0; k < e.properties.size(); ++k)
        for (int a = 0; a < 3; ++a)
          if (e.properties[k].name == std::string(1, char('x' + a))) axis_of[a] = int(k);
      if (axis_of[0] < 0 || axis_of[1] < 0 || axis_of[2] < 0) fail(file, "vertex element lacks x, y or z");
      limits::resize_or_fail(mesh.vertices, e.count, file, std::to_string(e.count) + " vertices (field 'element vertex')");
      vertex_count = e.count;
      for (uint64_t v = 0; v < e.count; ++v)
        for (size_t k = 0; k < e.properties.size(); ++k) {
          const Property& p = e.properties[k];
          const uint64_t items = p.list ? list_length(p, limits::kMaxPlyListItems) : 1;
          for (uint64_t item = 0; item < items; ++item) {
            const double value = reader.read(p.type);
            for (int a = 0; a < 3; ++a)
              if (int(k) == axis_of[a]) {
                if (!(std::abs(value) <= double(std::numeric_limits<float>::max())))  // NaN, inf, or beyond a float
                  fail(file, "vertex " + std::to_string(v) + " has a non-finite coordinate");
                mesh.vertices[v][a] = float(value);
              }
          }
        }
    } else if (e.name == "face") {
      std::vector<int64_t> corners;
      for (uint64_t f = 0; f < e.count; ++f)
        for (const Property& p : e.properties) {
          const bool indices = p.list && (p.name == "vertex_indices" || p.name == "vertex_index");
          const uint64_t items = p.list ? list_length(p, indices ? limits::kMaxPolygonCorners : limits::kMaxPlyListItems) : 1;
          corners.clear();
          for (uint64_t item = 0; item < items; ++item) {
            const double index = reader.read(p.type);
            // Out-of-range values become -1, which add_polygon reports (a cast would be undefined).
            corners.push_back(index >= 0.0 && index < 4294967296.0 ? int64_t(index) : -1);
          }
          if (indices) add_polygon(file, corners, vertex_count, f, mesh);
        }
    } else if (!e.properties.empty()) {
      for (uint64_t i = 0; i < e.count; ++i)  // skip elements we do not use
        for (const Property& p : e.properties) {
          const uint64_t items = p.list ? list_length(p, limits::kMaxPlyListItems) : 1;
          for (uint64_t item = 0; item < items; ++item) reader.read(p.type);
        }
    }
  }
  return mesh;
}

TriangleMesh read_obj(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) fail(file, "cannot open");
  TriangleMesh mesh;
  std::string line;
  uint64_t line_number = 0, face = 0;
  std::vector<int64_t> corners;
  while (std::getline(in, line)) {
    ++line_number;
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "v") {
      std::array<float, 3> v{};
      double x, y, z;
      constexpr double kFloatMax = std::numeric_limits<float>::max();
      if (!(words >> x >> y >> z) || !(std::abs(x) <= kFloatMax) || !(std::abs(y) <= kFloatMax) || !(std::abs(z) <= kFloatMax))
        fail(file, "line " + std::to_string(line_number) + ": expected three finite coordinates");
      v = {float(x), float(y), float(z)};
      limits::check_declared(file, "v", mesh.vertices.size() + 1, limits::kMaxMeshVertices, "vertices");
      mesh.vertices.push_back(v);
    } else if (tag == "f") {
      corners.clear();
      for (std::string corner; words >> corner;) {
        // The vertex index is what precedes the first slash ("7/2/3" -> 7), read whole.
        const char* first = corner.data();
        const char* last = first + std::min(corner.size(), corner.find('/'));
        int64_t index = 0;
        const auto [end, error] = std::from_chars(first, last, index);
        if (error != std::errc() || end != last || index == 0)
          fail(file, "line " + std::to_string(line_number) + ": bad face index '" + corner + "'");
        // OBJ counts from 1; negative indices count back from the last vertex.
        corners.push_back(index > 0 ? index - 1 : int64_t(mesh.vertices.size()) + index);
      }
      if (corners.size() < 3) fail(file, "line " + std::to_string(line_number) + ": a face needs three corners");
      limits::check_declared(file, "f", face + 1, limits::kMaxMeshFaces, "faces");
      add_polygon(file, corners, mesh.vertices.size(), face++, mesh);
    }
  }
  return mesh;
}

}  // namespace

TriangleMesh read_mesh(const std::filesystem::path& file) {
  std::string ext = file.extension().string();
  for (char& c : ext) c = char(std::tolower(c));
  if (ext == ".ply" || ext == ".obj") limits::require_regular_file(file, "mesh");  // not /dev/zero, not a name too long
  if (ext == ".ply") return read_ply(file);
  if (ext == ".obj") return read_obj(file);
  fail(file, "unsupported mesh format '" + ext + "' (expected .ply or .obj)");
}

}  // namespace meniscus::sim
