#include "sim/histopyramid/nifti_io.h"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus::sim {
namespace {

constexpr size_t kHeaderBytes = 348;  // NIfTI-1; the data may start at vox_offset >= 352

using limits::fail;

// Reads through zlib, which passes uncompressed files through unchanged: one path for both.
class GzipReader {
 public:
  explicit GzipReader(const std::filesystem::path& path) : path_(path), file_(gzopen(path.c_str(), "rb"), &gzclose) {
    if (!file_) fail(path, "cannot open");
  }
  // Reads exactly n bytes into `out`, or fails naming `what` was cut short.
  void read(void* out, uint64_t n, const std::string& what) {
    auto* bytes = static_cast<char*>(out);
    while (n > 0) {
      const unsigned chunk = unsigned(std::min<uint64_t>(n, 1u << 30));
      const int got = gzread(file_.get(), bytes, chunk);
      if (got < 0) {
        int code = 0;
        fail(path_, "corrupt compressed data while reading " + what + " (" + gzerror(file_.get(), &code) + ")");
      }
      if (got == 0) fail(path_, "truncated: the file ends inside " + what);
      bytes += got;
      n -= uint64_t(got);
    }
  }
  void skip(uint64_t n, const std::string& what) {
    char scratch[4096];
    while (n > 0) {
      const uint64_t chunk = std::min<uint64_t>(n, sizeof scratch);
      read(scratch, chunk, what);
      n -= chunk;
    }
  }

 private:
  std::filesystem::path path_;
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file_;
};

struct Header {
  const unsigned char* bytes;
  bool swap;
  template <class T>
  T at(size_t offset) const {
    unsigned char b[sizeof(T)];
    std::memcpy(b, bytes + offset, sizeof(T));
    if (swap) std::reverse(b, b + sizeof(T));
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
  }
};

struct Datatype {
  int16_t code;
  const char* name;
  int bytes;
};

constexpr Datatype kDatatypes[] = {{2, "uint8", 1},  {4, "int16", 2},   {8, "int32", 4},   {16, "float32", 4},
                                   {64, "float64", 8}, {256, "int8", 1}, {512, "uint16", 2}, {768, "uint32", 4}};

double sample_value(const Datatype& type, const unsigned char* p, bool swap) {
  unsigned char b[8];
  std::memcpy(b, p, size_t(type.bytes));
  if (swap) std::reverse(b, b + type.bytes);
  const auto as = [&]<class T>(T) {
    T v;
    std::memcpy(&v, b, sizeof v);
    return double(v);
  };
  switch (type.code) {
    case 2: return as(uint8_t{});
    case 4: return as(int16_t{});
    case 8: return as(int32_t{});
    case 16: return as(float{});
    case 64: return as(double{});
    case 256: return as(int8_t{});
    case 512: return as(uint16_t{});
    default: return as(uint32_t{});
  }
}

}  // namespace

bool is_nifti_path(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  const auto ends = [&](const std::string& s) { return name.size() > s.size() && name.ends_with(s); };
  return ends(".nii") || ends(".nii.gz");
}

Volume load_nifti(const std::filesystem::path& path) {
  limits::require_regular_file(path, "volume");
  GzipReader in(path);
  unsigned char raw[kHeaderBytes];
  in.read(raw, kHeaderBytes, "the 348-byte header");
  int32_t size_le;
  std::memcpy(&size_le, raw, 4);
  Header h{raw, false};
  if (size_le != 348) {
    h.swap = true;
    if (h.at<int32_t>(0) != 348) {
      if (size_le == 540 || h.at<int32_t>(0) == 540) fail(path, "field 'sizeof_hdr': NIfTI-2 (540) is not supported, only NIfTI-1");
      fail(path, "field 'sizeof_hdr': " + std::to_string(size_le) + ", not 348: not a NIfTI-1 file");
    }
  }
  if (std::memcmp(raw + 344, "n+1", 4) != 0) {
    if (std::memcmp(raw + 344, "ni1", 4) == 0)
      fail(path, "field 'magic': a header/image pair (.hdr + .img); only single-file .nii is supported");
    fail(path, "field 'magic': not 'n+1'");
  }

  const int16_t rank = h.at<int16_t>(40);
  if (rank < 1 || rank > 7) fail(path, "field 'dim[0]': " + std::to_string(rank) + " dimensions (1 to 7)");
  int64_t dim[8] = {rank, 1, 1, 1, 1, 1, 1, 1};
  for (int a = 1; a <= rank; ++a) {
    dim[a] = h.at<int16_t>(40 + 2 * a);
    if (dim[a] < 1) fail(path, "field 'dim[" + std::to_string(a) + "]': " + std::to_string(dim[a]) + ", must be >= 1");
  }
  for (int a = 4; a <= rank; ++a)
    if (dim[a] > 1)
      fail(path, "field 'dim[" + std::to_string(a) + "]': " + std::to_string(dim[a]) + " (a " + std::to_string(rank) +
                     "-D image); only 3-D volumes are supported");

  const int16_t code = h.at<int16_t>(70);
  const Datatype* type = nullptr;
  for (const Datatype& t : kDatatypes)
    if (t.code == code) type = &t;
  if (!type)
    fail(path, "field 'datatype': " + std::to_string(code) +
                   " is not supported (uint8, int8, int16, uint16, int32, uint32, float32, float64)");

  Volume volume;
  volume.source = path.string();
  const uint64_t samples = uint64_t(dim[1]) * uint64_t(dim[2]) * uint64_t(dim[3]);
  for (int a = 1; a <= 3; ++a)
    limits::check_declared(path, "dim[" + std::to_string(a) + "]", uint64_t(dim[a]), limits::kMaxVolumeAxis, "samples");
  limits::check_declared(path, "dim",
                         std::to_string(dim[1]) + " x " + std::to_string(dim[2]) + " x " + std::to_string(dim[3]) +
                             " = " + std::to_string(samples),
                         samples, limits::kMaxVolumeSamples, "samples");
  limits::check_memory(path, "dim", samples * (sizeof(float) + type->bytes), std::to_string(samples) + " samples");
  volume.dims = glm::uvec3(uint32_t(dim[1]), uint32_t(dim[2]), uint32_t(dim[3]));

  for (int a = 1; a <= 3; ++a) {
    const float s = a <= rank ? std::abs(h.at<float>(76 + 4 * a)) : 1.0f;
    if (!(s >= limits::kMinSpacing && s <= limits::kMaxSpacing))
      fail(path, "field 'pixdim[" + std::to_string(a) + "]': spacing " + limits::number_text(s) + " must be in [" +
                     limits::number_text(limits::kMinSpacing) + ", " + limits::number_text(limits::kMaxSpacing) + "]");
    volume.spacing[a - 1] = s;
  }
  const float vox_offset = h.at<float>(108);
  if (!(vox_offset >= float(kHeaderBytes) && vox_offset < 1e9f))
    fail(path, "field 'vox_offset': " + limits::number_text(vox_offset) + ", must be at least 348");
  float slope = h.at<float>(112), intercept = h.at<float>(116);
  if (!std::isfinite(slope) || !std::isfinite(intercept)) fail(path, "field 'scl_slope'/'scl_inter': not finite");
  if (slope == 0.0f) slope = 1.0f, intercept = 0.0f;  // the standard's "no scaling"

  in.skip(uint64_t(vox_offset) - kHeaderBytes, "the header extensions before vox_offset");
  // Read in pieces, the buffer growing only as the file delivers: a short or compressed file
  // that declares a huge volume ends in "truncated" before the whole declared size is allocated.
  constexpr uint64_t kReadPiece = uint64_t(64) << 20;
  const uint64_t total = samples * uint64_t(type->bytes);
  std::vector<unsigned char> bytes;
  for (uint64_t at = 0; at < total;) {
    const uint64_t piece = std::min(kReadPiece, total - at);
    limits::resize_or_fail(bytes, at + piece, path, "the samples");
    in.read(bytes.data() + at, piece, "the samples (" + std::to_string(samples) + " of " + type->name + ")");
    at += piece;
  }
  limits::resize_or_fail(volume.values, samples, path, "the samples");
  for (uint64_t i = 0; i < samples; ++i) {
    const double v = slope * sample_value(*type, bytes.data() + i * uint64_t(type->bytes), h.swap) + intercept;
    if (!std::isfinite(float(v))) fail(path, "sample " + std::to_string(i) + " is not a finite number");
    volume.values[i] = float(v);
  }
  return volume;
}

}  // namespace meniscus::sim
