// NIfTI-1 reading (nifti_io.h): files written here byte by byte, plain and gzip-compressed,
// read back sample for sample; and the hostile ones issue 14 lists, each one InputError naming
// the file and the header field.
#include <catch2/catch.hpp>
#include <zlib.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "engine/core/error.h"
#include "sim/histopyramid/volume_io.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;

struct NiftiSpec {
  std::vector<int16_t> dim = {3, 3, 2, 2, 1, 1, 1, 1};
  int16_t datatype = 4;  // int16
  int16_t bitpix = 16;
  float pixdim[4] = {1.0f, 0.5f, 0.75f, 2.0f};
  float vox_offset = 352.0f;
  float slope = 0.0f, intercept = 0.0f;
  const char* magic = "n+1";
  int32_t sizeof_hdr = 348;
  bool big_endian = false;
};

template <class T>
void put(std::vector<char>& bytes, size_t offset, T value, bool big_endian) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  if (big_endian) std::reverse(b, b + sizeof(T));
  std::memcpy(bytes.data() + offset, b, sizeof(T));
}

std::vector<char> nifti(const NiftiSpec& s, const std::vector<char>& data) {
  std::vector<char> bytes(352, 0);
  put(bytes, 0, s.sizeof_hdr, s.big_endian);
  for (size_t i = 0; i < 8; ++i) put(bytes, 40 + 2 * i, s.dim[i], s.big_endian);
  put(bytes, 70, s.datatype, s.big_endian);
  put(bytes, 72, s.bitpix, s.big_endian);
  for (int i = 0; i < 4; ++i) put(bytes, 76 + 4 * size_t(i), s.pixdim[i], s.big_endian);
  put(bytes, 108, s.vox_offset, s.big_endian);
  put(bytes, 112, s.slope, s.big_endian);
  put(bytes, 116, s.intercept, s.big_endian);
  std::memcpy(bytes.data() + 344, s.magic, 4);
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

std::vector<char> int16_samples(const std::vector<int16_t>& values, bool big_endian = false) {
  std::vector<char> out(values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) put(out, 2 * i, values[i], big_endian);
  return out;
}

std::filesystem::path write_nifti(const std::string& name, const std::vector<char>& bytes, bool gzip = false) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-nifti-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  if (gzip) {
    gzFile file = gzopen(path.c_str(), "wb");
    gzwrite(file, bytes.data(), unsigned(bytes.size()));
    gzclose(file);
  } else {
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  }
  return path;
}

std::string nifti_error_of(const std::filesystem::path& path) {
  try {
    load_volume(path.string());
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no InputError)";
}

const std::vector<int16_t> kValues = {0, 1, 2, -3, 4, 5, 600, 7, 8, 9, 10, -11};  // 3 x 2 x 2

}  // namespace

TEST_CASE("nifti: a plain .nii reads sample for sample with its spacing") {
  const Volume v = load_volume(write_nifti("plain.nii", nifti({}, int16_samples(kValues))).string());
  CHECK(v.dims == glm::uvec3(3, 2, 2));
  CHECK(v.spacing == glm::vec3(0.5f, 0.75f, 2.0f));
  REQUIRE(v.values.size() == kValues.size());
  for (size_t i = 0; i < kValues.size(); ++i) CHECK(v.values[i] == float(kValues[i]));
}

TEST_CASE("nifti: .nii.gz, big-endian and intensity scaling read as the plain file") {
  NiftiSpec big;
  big.big_endian = true;
  const Volume gz = load_volume(write_nifti("zipped.nii.gz", nifti({}, int16_samples(kValues)), true).string());
  const Volume be = load_volume(write_nifti("big.nii", nifti(big, int16_samples(kValues, true))).string());
  NiftiSpec scaled;
  scaled.slope = 2.0f;
  scaled.intercept = -1.0f;
  const Volume sc = load_volume(write_nifti("scaled.nii", nifti(scaled, int16_samples(kValues))).string());
  for (size_t i = 0; i < kValues.size(); ++i) {
    CHECK(gz.values[i] == float(kValues[i]));
    CHECK(be.values[i] == float(kValues[i]));
    CHECK(sc.values[i] == 2.0f * float(kValues[i]) - 1.0f);
  }
}

TEST_CASE("nifti: a 4-D image with one volume is 3-D, with several it is refused") {
  NiftiSpec one;
  one.dim = {4, 3, 2, 2, 1, 1, 1, 1};
  CHECK(load_volume(write_nifti("one.nii", nifti(one, int16_samples(kValues))).string()).dims == glm::uvec3(3, 2, 2));
  NiftiSpec four;
  four.dim = {4, 3, 2, 2, 5, 1, 1, 1};
  const auto path = write_nifti("four.nii", nifti(four, int16_samples(kValues)));
  CHECK_THAT(nifti_error_of(path), Contains(path.string()) && Contains("field 'dim[4]'") && Contains("only 3-D"));
}

TEST_CASE("nifti: hostile headers and data name the file and the field") {
  const std::vector<char> data = int16_samples(kValues);
  NiftiSpec complex;
  complex.datatype = 32;  // complex64
  CHECK_THAT(nifti_error_of(write_nifti("complex.nii", nifti(complex, data))),
             Contains("field 'datatype': 32 is not supported"));
  NiftiSpec unknown;
  unknown.datatype = 12345;
  CHECK_THAT(nifti_error_of(write_nifti("unknown.nii", nifti(unknown, data))), Contains("field 'datatype'"));
  NiftiSpec two;
  two.sizeof_hdr = 540;
  CHECK_THAT(nifti_error_of(write_nifti("two.nii", nifti(two, data))),
             Contains("field 'sizeof_hdr'") && Contains("NIfTI-2"));
  NiftiSpec pair;
  pair.magic = "ni1";
  CHECK_THAT(nifti_error_of(write_nifti("pair.nii", nifti(pair, data))), Contains("field 'magic'"));
  NiftiSpec negative;
  negative.dim = {3, 3, -2, 2, 1, 1, 1, 1};
  CHECK_THAT(nifti_error_of(write_nifti("negative.nii", nifti(negative, data))), Contains("field 'dim[2]'"));
  NiftiSpec huge;
  huge.dim = {3, 8000, 8000, 8000, 1, 1, 1, 1};
  CHECK_THAT(nifti_error_of(write_nifti("huge.nii", nifti(huge, data))),
             Contains("field 'dim'") && Contains("over the limit"));
  NiftiSpec flat;
  flat.pixdim[1] = 0.0f;
  CHECK_THAT(nifti_error_of(write_nifti("flat.nii", nifti(flat, data))), Contains("field 'pixdim[1]'"));
  NiftiSpec offset;
  offset.vox_offset = 12.0f;
  CHECK_THAT(nifti_error_of(write_nifti("offset.nii", nifti(offset, data))), Contains("field 'vox_offset'"));

  // Cut short: the plain file inside its samples, the gzip stream inside its deflate data.
  std::vector<char> whole = nifti({}, data);
  whole.resize(whole.size() - 5);
  CHECK_THAT(nifti_error_of(write_nifti("short.nii", whole)), Contains("short.nii: truncated"));
  const auto zipped = write_nifti("cut.nii.gz", nifti({}, data), true);
  std::filesystem::resize_file(zipped, std::filesystem::file_size(zipped) - 12);
  const std::string cut = nifti_error_of(zipped);
  CHECK_THAT(cut, Contains("cut.nii.gz"));
  CHECK((cut.find("truncated") != std::string::npos || cut.find("corrupt") != std::string::npos));
  CHECK_THAT(nifti_error_of(write_nifti("empty.nii.gz", {}, true)),
             Contains("empty.nii.gz: truncated") && Contains("header"));

  // A float sample that is not a number.
  NiftiSpec floats;
  floats.datatype = 16;
  floats.bitpix = 32;
  std::vector<char> nan_data(12 * 4, 0);
  put(nan_data, 20, std::numeric_limits<float>::quiet_NaN(), false);
  CHECK_THAT(nifti_error_of(write_nifti("nan.nii", nifti(floats, nan_data))),
             Contains("nan.nii: sample 5 is not a finite number"));
}

}  // namespace meniscus::sim
