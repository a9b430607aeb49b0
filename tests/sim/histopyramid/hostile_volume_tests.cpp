// NRRD and legacy VTK inputs that once crashed, read outside their buffer, hung or failed
// without naming the file (issue 18): each is fed exactly and must now give one InputError
// naming the file and the field, at once and without allocating what the header declares.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "engine/core/error.h"
#include "sim/histopyramid/slice_pattern.h"
#include "sim/histopyramid/volume_io.h"

namespace meniscus::sim {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path write(const std::string& name, const std::string& bytes) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-hostile-volume-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The message, within a second: a hang or a gigabyte allocation fails the test.
std::string error_of(const std::string& source) {
  const auto start = std::chrono::steady_clock::now();
  std::string message = "(no InputError)";
  try {
    load_volume(source);
  } catch (const InputError& error) {
    message = error.what();
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  return message;
}
std::string error_of(const std::filesystem::path& file) { return error_of(file.string()); }

std::string nhdr(const std::string& sizes, const std::string& data_file, const std::string& type = "uchar") {
  return "NRRD0004\ndimension: 3\nsizes: " + sizes + "\ntype: " + type + "\nencoding: raw\ndata file: " + data_file +
         "\n";
}

const std::string kVtkHeader = "# vtk DataFile Version 3.0\nt\nBINARY\nDATASET STRUCTURED_POINTS\n";

}  // namespace

TEST_CASE("a .nhdr data-file pattern with %n or %s is refused, never given to printf", "[volume][hostile]") {
  write("slice1.raw", std::string(8, '\1'));
  for (const char* conversion : {"%n", "%s", "%x", "%-5d", "%.3d", "%ld"}) {
    const auto file = write("pattern.nhdr", nhdr("2 2 2", "slice" + std::string(conversion) + ".raw 1 2 1"));
    CHECK_THAT(error_of(file),
               Contains("pattern.nhdr: field 'data file': unsupported conversion '" + std::string(conversion) + "'"));
  }
}

TEST_CASE("slice patterns expand %d, %0Nd and %% themselves", "[volume][hostile]") {
  CHECK(expand_slice_pattern("h.nhdr", "q.%d 1 3 1") == std::vector<std::string>{"q.1", "q.2", "q.3"});
  CHECK(expand_slice_pattern("h.nhdr", "s%03d.raw 9 11 2") == std::vector<std::string>{"s009.raw", "s011.raw"});
  CHECK(expand_slice_pattern("h.nhdr", "a%%%3d 5 3 -2") == std::vector<std::string>{"a%  5", "a%  3"});
  CHECK_THROWS_WITH(expand_slice_pattern("h.nhdr", "s%d 1 5 0"), Contains("step 0"));
  CHECK_THROWS_WITH(expand_slice_pattern("h.nhdr", "s%d 5 1 1"), Contains("never reaches"));
  CHECK_THROWS_WITH(expand_slice_pattern("h.nhdr", "s%d%d 1 2 1"), Contains("more than one %d"));
  CHECK_THROWS_WITH(expand_slice_pattern("h.nhdr", "s.raw 1 2 1"), Contains("needs a %d"));
  CHECK_THROWS_WITH(expand_slice_pattern("h.nhdr", "s%d -9223372036854775807 9223372036854775807 1"),
                    Contains("out of range"));
}

TEST_CASE("a slice range with a huge count is refused before any file is looked for", "[volume][hostile]") {
  const auto file = write("range.nhdr", nhdr("2 2 2", "slice%d.raw 1 2000000000 1"));
  CHECK_THAT(error_of(file), Contains("range.nhdr: field 'data file': declares 2000000000 slice files, over the limit "
                                      "of 8192 slice files"));
}

TEST_CASE("a data file that is a device (/dev/zero) is refused", "[volume][hostile]") {
  CHECK_THAT(error_of(write("zero.nhdr", nhdr("64 64 64", "/dev/zero"))),
             Contains("/dev/zero: data file is not a regular file"));
  const auto link = std::filesystem::temp_directory_path() / "meniscus-hostile-volume-tests" / "zslice1.raw";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/zero", link);
  CHECK_THAT(error_of(write("zero_slices.nhdr", nhdr("64 64 2", "zslice%d.raw 1 1 1"))),
             Contains("zslice1.raw: data file is not a regular file"));
  CHECK_THAT(error_of(write("missing.nhdr", nhdr("2 2 2", "nothing.raw"))),
             Contains("nothing.raw: cannot open data file: no such file"));
  // An absolute data file (the fuzzer's "/ata.raw"): the header is named too.
  CHECK_THAT(error_of(write("absolute.nhdr", nhdr("2 2 2", "/nothing-here.raw"))),
             Contains("absolute.nhdr: field 'data file': /nothing-here.raw: cannot open data file: no such file"));
}

TEST_CASE("declared sizes are checked against the policy and the data before allocating", "[volume][hostile]") {
  // 73 bytes that once reached 4.2 GB of memory before saying "truncated".
  const std::string small = "NRRD0004\ndimension: 3\nsizes: 1024 1024 1024\ntype: float\nencoding: raw\n\n01";
  CHECK(small.size() == 73);
  CHECK_THAT(error_of(write("small.nrrd", small)),
             Contains("small.nrrd: truncated: 2 bytes of data, the header promises 4294967296"));
  // 8192³ (std::bad_alloc before) and about 2 G samples (minutes before).
  const std::string cube = "NRRD0004\ndimension: 3\nsizes: 8192 8192 8192\ntype: uchar\nencoding: raw\n\n0";
  CHECK_THAT(error_of(write("cube.nrrd", cube)),
             Contains("cube.nrrd: field 'sizes': declares 8192 x 8192 x 8192 = 549755813888 samples, over the "
                      "limit of 1073741824 samples"));
  const std::string two_g = "NRRD0004\ndimension: 3\nsizes: 2048 1024 1024\ntype: uchar\nencoding: raw\n\n0";
  CHECK_THAT(error_of(write("two_g.nrrd", two_g)), Contains("two_g.nrrd: field 'sizes': declares 2048 x 1024 x 1024"));
  // Legacy VTK with a 2 G sample count (std::bad_alloc before).
  const std::string vtk = kVtkHeader +
                          "DIMENSIONS 2048 1024 1024\nPOINT_DATA 2147483648\nSCALARS v float\n"
                          "LOOKUP_TABLE default\n";
  CHECK_THAT(error_of(write("two_g.vtk", vtk)), Contains("two_g.vtk: field 'DIMENSIONS': declares 2048 x 1024 x 1024"));
  const std::string ascii =
      "# vtk DataFile Version 3.0\nt\nASCII\nDATASET STRUCTURED_POINTS\nDIMENSIONS 512 512 512\n"
      "POINT_DATA 134217728\nSCALARS v float\nLOOKUP_TABLE default\n1 2 3\n";
  CHECK_THAT(error_of(write("ascii.vtk", ascii)), Contains("ascii.vtk: truncated: 6 bytes of ASCII data"));
}

TEST_CASE("a binary VTK without its LOOKUP_TABLE line is refused (it read before its buffer)", "[volume][hostile]") {
  const std::string file = kVtkHeader +
                           "DIMENSIONS 2 2 2\nSPACING 1 1 1\nORIGIN 0 0 0\nPOINT_DATA 8\n"
                           "SCALARS v unsigned_char\n" +
                           std::string(8, '\7');
  CHECK_THAT(error_of(write("nolut.vtk", file)), Contains("nolut.vtk: missing LOOKUP_TABLE line"));
  const std::string negative = kVtkHeader + "DIMENSIONS 2 2 2\nPOINT_DATA -1\nSCALARS v float\nLOOKUP_TABLE default\n";
  CHECK_THAT(error_of(write("negative.vtk", negative)), Contains("negative.vtk: POINT_DATA: expected a count"));
}

TEST_CASE("zero, tiny, NaN and non-numeric spacings are refused by the reader (OpenVDB threw)", "[volume][hostile]") {
  write("cube8.raw", std::string(8, '\1'));
  for (const char* spacing : {"0 0 0", "1e-30 1 1", "nan nan nan", "1 x 1", "-1 1 1", "inf 1 1"}) {
    const auto file = write("spacing.nhdr", nhdr("2 2 2", "cube8.raw") + "spacings: " + spacing + "\n");
    CHECK_THAT(error_of(file), Contains("spacing.nhdr: field 'spacings'"));
    const std::string vtk = kVtkHeader + "DIMENSIONS 2 2 2\nSPACING " + spacing +
                            "\nPOINT_DATA 8\nSCALARS v unsigned_char\nLOOKUP_TABLE default\n" + std::string(8, '\1');
    CHECK_THAT(error_of(write("spacing.vtk", vtk)), Contains("spacing.vtk: field 'SPACING'"));
  }
  const std::string origin = kVtkHeader + "DIMENSIONS 2 2 2\nORIGIN nan 0 0\nPOINT_DATA 8\n";
  CHECK_THAT(error_of(write("origin.vtk", origin)), Contains("origin.vtk: field 'ORIGIN'"));
}

TEST_CASE("a volume name too long for the system is an input error naming it", "[volume][hostile]") {
  CHECK_THAT(error_of("/tmp/" + std::string(5000, 'v') + ".nrrd"), Contains("File name too long"));
  CHECK_THAT(error_of(std::string(5000, 'c') + ":64"), Contains("unknown field"));
  CHECK_THAT(error_of(std::string("cayley:4294967298")), Contains("size must be in [2, 2048]"));
}

TEST_CASE("valid volumes read as before after the checks", "[volume][hostile]") {
  write("ok1.raw", std::string(4, '\1'));
  write("ok2.raw", std::string(4, '\2'));
  const Volume slices = load_volume(write("ok.nhdr", nhdr("2 2 2", "ok%d.raw 1 2 1") + "spacings: 0.5 1 2\n").string());
  CHECK(slices.values.back() == 2.0f);
  CHECK(slices.spacing.z == 2.0f);
  const Volume vtk = load_volume(write("ok.vtk", kVtkHeader +
                                                     "DIMENSIONS 2 2 2\nSPACING 1 1 1\nPOINT_DATA 8\n"
                                                     "SCALARS v unsigned_char\nLOOKUP_TABLE default\n" +
                                                     std::string(8, '\3'))
                                     .string());
  CHECK(vtk.values.front() == 3.0f);
}

}  // namespace meniscus::sim
