#include "sim/histopyramid/volume_io.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "sim/histopyramid/nifti_io.h"
#include "sim/histopyramid/slice_pattern.h"

namespace meniscus::sim {
namespace {

using limits::fail;

struct SampleType {
  std::string name;
  size_t bytes;
};

SampleType sample_type(const std::filesystem::path& path, std::string name) {
  static const std::map<std::string, SampleType> known = {
      {"uchar", {"uint8", 1}},   {"unsigned char", {"uint8", 1}}, {"uint8", {"uint8", 1}},      {"uint8_t", {"uint8", 1}},
      {"unsigned_char", {"uint8", 1}}, {"short", {"int16", 2}},   {"int16", {"int16", 2}},       {"short int", {"int16", 2}},
      {"signed short", {"int16", 2}}, {"int16_t", {"int16", 2}},  {"ushort", {"uint16", 2}},     {"unsigned short", {"uint16", 2}},
      {"uint16", {"uint16", 2}},  {"unsigned_short", {"uint16", 2}}, {"int", {"int32", 4}},     {"int32", {"int32", 4}},
      {"float", {"float32", 4}},  {"float32", {"float32", 4}}};
  auto it = known.find(name);
  if (it == known.end()) fail(path, "unsupported sample type '" + name + "' (uint8, int16, uint16, int32, float32)");
  return it->second;
}

// Converts `count` samples of `type` from `bytes` (with the given endianness) to floats.
void decode(const std::filesystem::path& path, const SampleType& type, bool big_endian, const char* bytes, size_t count,
            float* out) {
  const bool swap = big_endian != (std::endian::native == std::endian::big);
  for (size_t i = 0; i < count; ++i) {
    unsigned char b[4];
    std::memcpy(b, bytes + i * type.bytes, type.bytes);
    if (swap) std::reverse(b, b + type.bytes);
    if (type.name == "uint8") out[i] = b[0];
    else if (type.name == "int16") { int16_t v; std::memcpy(&v, b, 2); out[i] = v; }
    else if (type.name == "uint16") { uint16_t v; std::memcpy(&v, b, 2); out[i] = v; }
    else if (type.name == "int32") { int32_t v; std::memcpy(&v, b, 4); out[i] = float(v); }
    else { float v; std::memcpy(&v, b, 4); if (!std::isfinite(v)) fail(path, "sample " + std::to_string(i) + " is not finite"); out[i] = v; }
  }
}

// The whole file, once it is known to be a regular file (not /dev/zero) that fits in memory.
std::string read_all(const std::filesystem::path& path, std::string_view role = "file") {
  const uint64_t size = limits::require_regular_file(path, role);
  limits::check_memory(path, "file size", size, "its bytes");
  std::ifstream file(path, std::ios::binary);
  if (!file) fail(path, "cannot open");
  std::string text;
  try {
    text.resize(size_t(size));
  } catch (const std::bad_alloc&) {
    fail(path, "cannot allocate " + limits::bytes_text(size) + " to read it");
  }
  file.read(text.data(), std::streamsize(size));
  text.resize(size_t(file.gcount()));  // a file that shrank since stat() reads as truncated
  return text;
}

std::string trim(std::string s) {
  const auto begin = s.find_first_not_of(" \t\r");
  const auto end = s.find_last_not_of(" \t\r");
  return begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

// Three sizes, each checked, and their product against the sample limit: before anything is
// allocated for them.
glm::uvec3 parse_dims(const std::filesystem::path& path, const std::string& field, const std::string& text) {
  std::istringstream in(text);
  long long d[3];
  if (!(in >> d[0] >> d[1] >> d[2])) fail(path, "field '" + field + "': expected three sizes, got '" + text + "'");
  for (long long x : d)
    if (x < 2 || uint64_t(x) > limits::kMaxVolumeAxis)
      fail(path, "field '" + field + "': each size must be in [2, " + std::to_string(limits::kMaxVolumeAxis) +
                     "], got '" + text + "'");
  const uint64_t samples = uint64_t(d[0]) * uint64_t(d[1]) * uint64_t(d[2]);
  limits::check_declared(path, field,
                         std::to_string(d[0]) + " x " + std::to_string(d[1]) + " x " + std::to_string(d[2]) + " = " +
                             std::to_string(samples),
                         samples, limits::kMaxVolumeSamples, "samples");
  limits::check_memory(path, field, samples * sizeof(float), std::to_string(samples) + " samples");
  return {uint32_t(d[0]), uint32_t(d[1]), uint32_t(d[2])};
}

// Spacing along each axis: finite and within what a level set's transform can hold.
glm::vec3 parse_spacing(const std::filesystem::path& path, const std::string& field, const std::string& text) {
  std::istringstream in(text);
  double s[3];
  const bool read = bool(in >> s[0] >> s[1] >> s[2]);
  for (int a = 0; a < 3 && read; ++a)
    if (!(s[a] >= limits::kMinSpacing && s[a] <= limits::kMaxSpacing))  // also false for NaN
      fail(path, "field '" + field + "': each spacing must be in [" + limits::number_text(limits::kMinSpacing) + ", " +
                     limits::number_text(limits::kMaxSpacing) + "], got '" + trim(text) + "'");
  if (!read) fail(path, "field '" + field + "': expected three positive numbers, got '" + trim(text) + "'");
  return {float(s[0]), float(s[1]), float(s[2])};
}

glm::vec3 parse_origin(const std::filesystem::path& path, const std::string& field, const std::string& text) {
  std::istringstream in(text);
  double o[3];
  if (!(in >> o[0] >> o[1] >> o[2]) || !std::isfinite(float(o[0])) || !std::isfinite(float(o[1])) ||
      !std::isfinite(float(o[2])))
    fail(path, "field '" + field + "': expected three finite numbers, got '" + trim(text) + "'");
  return {float(o[0]), float(o[1]), float(o[2])};
}

void check_size(const std::filesystem::path& path, size_t have, size_t need) {
  if (have < need)
    fail(path, "truncated: " + std::to_string(have) + " bytes of data, the header promises " + std::to_string(need));
}

}  // namespace

Volume load_nrrd(const std::filesystem::path& path) {
  const std::string text = read_all(path);
  if (text.rfind("NRRD", 0) != 0) fail(path, "not a NRRD file (no NRRD magic)");
  std::map<std::string, std::string> fields;
  size_t pos = text.find('\n') + 1, data_start = std::string::npos;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    const std::string line = trim(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    pos = end == std::string::npos ? text.size() : end + 1;
    if (line.empty()) {
      data_start = pos;  // a blank line ends the header of an attached-data .nrrd
      break;
    }
    if (line[0] == '#') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) fail(path, "malformed header line '" + line + "'");
    std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 1));
    if (!value.empty() && value[0] == '=') value = trim(value.substr(1));
    fields[key] = value;
  }
  auto field = [&](const std::string& key) -> const std::string& {
    auto it = fields.find(key);
    if (it == fields.end()) fail(path, "missing field '" + key + "'");
    return it->second;
  };
  if (field("dimension") != "3") fail(path, "field 'dimension': only 3D volumes are supported, got " + field("dimension"));
  if (field("encoding") != "raw") fail(path, "field 'encoding': only raw is supported, got '" + field("encoding") + "'");
  const SampleType type = sample_type(path, field("type"));
  const bool big = fields.count("endian") && fields["endian"] == "big";

  Volume v;
  v.source = path.string();
  v.dims = parse_dims(path, "sizes", field("sizes"));
  if (fields.count("spacings")) v.spacing = parse_spacing(path, "spacings", fields["spacings"]);
  const size_t count = size_t(v.dims.x) * v.dims.y * v.dims.z;
  const size_t need = count * type.bytes;

  // The data is read and measured before the samples are allocated.
  std::string data;
  if (fields.count("data file") || fields.count("datafile")) {
    const std::string spec = fields.count("data file") ? fields["data file"] : fields["datafile"];
    const auto dir = path.parent_path();
    // A data file's errors name the header and its field as well: an absolute or mistyped name
    // points at a file the user never opened.
    const auto read_data = [&](const std::filesystem::path& file) {
      try {
        return read_all(file, "data file");
      } catch (const InputError& error) {
        fail(path, std::string("field 'data file': ") + error.what());
      }
    };
    if (is_slice_pattern(spec)) {
      // A file per slice range: "quarter.%d 1 93 1".
      for (const std::string& name : expand_slice_pattern(path, spec)) {
        const auto file = dir / name;
        if (data.size() >= need) break;  // more slices than the sizes need: the rest is not read
        data += read_data(file);
      }
    } else {
      std::istringstream in(spec);
      std::string name;
      in >> name;
      if (name == "LIST") fail(path, "field 'data file': LIST is not supported (a single file or a slice range)");
      data = read_data(dir / name);
    }
  } else {
    if (data_start == std::string::npos) fail(path, "no data: neither 'data file' nor attached data after the header");
    data = text.substr(data_start);
  }
  check_size(path, data.size(), need);
  limits::resize_or_fail(v.values, count, path, std::to_string(count) + " samples (field 'sizes')");
  decode(path, type, big, data.data(), count, v.values.data());
  return v;
}

Volume load_vtk_structured_points(const std::filesystem::path& path) {
  const std::string text = read_all(path);
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (line.find("# vtk DataFile") != 0) fail(path, "not a legacy VTK file");
  std::getline(in, line);  // title
  std::string format;
  while (std::getline(in, format) && trim(format).empty()) {
  }
  format = trim(format);
  if (format != "BINARY" && format != "ASCII") fail(path, "expected BINARY or ASCII, got '" + format + "'");
  Volume v;
  v.source = path.string();
  std::string scalar_type;
  size_t points = 0;
  bool lookup_table = false;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "DATASET") {
      std::string kind;
      words >> kind;
      if (kind != "STRUCTURED_POINTS") fail(path, "DATASET " + kind + " is not supported (STRUCTURED_POINTS only)");
    } else if (key == "DIMENSIONS") {
      std::string rest;
      std::getline(words, rest);
      v.dims = parse_dims(path, "DIMENSIONS", rest);
    } else if (key == "SPACING" || key == "ASPECT_RATIO") {
      std::string rest;
      std::getline(words, rest);
      v.spacing = parse_spacing(path, key, rest);
    } else if (key == "ORIGIN") {
      std::string rest;
      std::getline(words, rest);
      v.origin = parse_origin(path, key, rest);
    } else if (key == "POINT_DATA") {
      long long declared = -1;
      if (!(words >> declared) || declared < 0) fail(path, "POINT_DATA: expected a count, got '" + trim(line) + "'");
      points = size_t(declared);
    } else if (key == "SCALARS") {
      std::string name;
      words >> name >> scalar_type;
      int components = 1;
      if (words >> components && components != 1) fail(path, "SCALARS with " + std::to_string(components) + " components");
    } else if (key == "LOOKUP_TABLE") {
      lookup_table = true;
      break;  // data follows
    }
  }
  if (v.dims.x == 0) fail(path, "missing DIMENSIONS");
  if (scalar_type.empty()) fail(path, "missing SCALARS");
  const size_t count = size_t(v.dims.x) * v.dims.y * v.dims.z;
  if (points != count) fail(path, "POINT_DATA " + std::to_string(points) + " does not match DIMENSIONS (" + std::to_string(count) + ")");
  const SampleType type = sample_type(path, scalar_type);
  // Without the LOOKUP_TABLE line there is no telling where the data starts (the stream is at
  // its end, and its position reads as -1).
  if (!lookup_table) fail(path, "missing LOOKUP_TABLE line before the data (SCALARS needs 'LOOKUP_TABLE default')");
  const std::streamoff position = in.tellg();
  if (position < 0 || size_t(position) > text.size()) fail(path, "no data after LOOKUP_TABLE");
  const size_t offset = size_t(position), available = text.size() - offset;
  // Checked before allocating: binary samples take their size each; ASCII ones at least two
  // characters ("0 ").
  if (format == "BINARY") check_size(path, available, count * type.bytes);
  else if (available / 2 + 1 < count)
    fail(path, "truncated: " + std::to_string(available) + " bytes of ASCII data cannot hold the " +
                   std::to_string(count) + " values POINT_DATA declares");
  limits::resize_or_fail(v.values, count, path, std::to_string(count) + " samples (DIMENSIONS)");
  if (format == "BINARY") {
    decode(path, type, /*big_endian=*/true, text.data() + offset, count, v.values.data());  // legacy VTK is big-endian
  } else {
    for (size_t i = 0; i < count; ++i)
      if (!(in >> v.values[i])) fail(path, "truncated: " + std::to_string(i) + " of " + std::to_string(count) + " values");
  }
  return v;
}

Volume load_raw(const std::filesystem::path& path, glm::uvec3 dims, const std::string& type_name) {
  const SampleType type = sample_type(path, type_name);
  Volume v;
  v.source = path.string();
  v.dims = parse_dims(path, "dims", std::to_string(dims.x) + " " + std::to_string(dims.y) + " " + std::to_string(dims.z));
  const size_t count = size_t(dims.x) * dims.y * dims.z;
  const std::string data = read_all(path);
  check_size(path, data.size(), count * type.bytes);
  if (data.size() > count * type.bytes) fail(path, "has " + std::to_string(data.size()) + " bytes, more than the " + std::to_string(count * type.bytes) + " the dimensions need (wrong dimensions?)");
  limits::resize_or_fail(v.values, count, path, std::to_string(count) + " samples");
  decode(path, type, false, data.data(), count, v.values.data());
  return v;
}

void write_nrrd_mask(const std::filesystem::path& path, const Volume& grid, const std::vector<uint8_t>& mask) {
  if (mask.size() != size_t(grid.dims.x) * grid.dims.y * grid.dims.z)
    throw std::invalid_argument("write_nrrd_mask: the mask does not match the grid");
  std::ofstream out(path, std::ios::binary);
  if (!out) fail(path, "cannot open for writing");
  out << "NRRD0004\n# a label mask written by meniscus (1 inside)\ntype: uint8\ndimension: 3\n"
      << "sizes: " << grid.dims.x << ' ' << grid.dims.y << ' ' << grid.dims.z << "\n"
      << "spacings: " << grid.spacing.x << ' ' << grid.spacing.y << ' ' << grid.spacing.z << "\n"
      << "encoding: raw\n\n";
  out.write(reinterpret_cast<const char*>(mask.data()), std::streamsize(mask.size()));
  if (!out) fail(path, "write failed");
}

Volume load_volume(const std::string& source) {
  const size_t colon = source.find(':');
  std::error_code error;  // a name the system refuses (too long) is not a file either
  if (colon != std::string::npos && !std::filesystem::exists(source, error)) {
    const std::string name = source.substr(0, colon), size = source.substr(colon + 1);
    char* end = nullptr;
    const long n = std::strtol(size.c_str(), &end, 10);
    if (end == size.c_str() || *end != '\0') throw InputError(source + ": expected <field>:<size>, e.g. cayley:128");
    return make_field(name, uint32_t(std::clamp(n, 0L, long(UINT32_MAX))));
  }
  const std::filesystem::path path(source);
  limits::require_regular_file(path, "volume");
  const std::string suffix = path.extension().string();
  if (is_nifti_path(path)) return load_nifti(path);
  if (suffix == ".nrrd" || suffix == ".nhdr") return load_nrrd(path);
  if (suffix == ".vtk") return load_vtk_structured_points(path);
  throw InputError(source + ": unknown volume format '" + suffix + "' (.nrrd, .nhdr, .vtk, .nii, .nii.gz, or a field like cayley:128)");
}

}  // namespace meniscus::sim
