// The one place that states what readers accept, and the checks every reader makes with it.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <vector>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus::limits {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no InputError)";
}

}  // namespace

TEST_CASE("a declared size over a limit names the file, the field, the value and the limit", "[limits]") {
  CHECK_THAT(error_of([] { check_declared("a.ply", "element vertex", 1500000000, kMaxMeshVertices, "vertices"); }),
             Equals("a.ply: field 'element vertex': declares 1500000000 vertices, over the limit of 268435456 "
                    "vertices (engine/core/input_limits.h)"));
  CHECK_NOTHROW(check_declared("a.ply", "element vertex", kMaxMeshVertices, kMaxMeshVertices, "vertices"));
}

TEST_CASE("more memory than is available is refused before allocating", "[limits]") {
  CHECK(available_memory_bytes() > (uint64_t(16) << 20));
  CHECK_THAT(error_of([] { check_memory("big.nrrd", "sizes", UINT64_MAX / 2, "samples"); }),
             Contains("big.nrrd: field 'sizes': samples need") && Contains("of memory available"));
}

TEST_CASE("readers take regular files only", "[limits]") {
  CHECK_THAT(error_of([] { require_regular_file("/dev/zero", "data file"); }),
             Contains("/dev/zero: data file is not a regular file"));
  CHECK_THAT(error_of([] { require_regular_file("/nonexistent/x.ply", "mesh"); }),
             Equals("/nonexistent/x.ply: cannot open mesh: no such file"));
  CHECK_THAT(error_of([] { require_regular_file(std::filesystem::temp_directory_path(), "volume"); }),
             Contains("is not a regular file"));
  // "File name too long" was a std::filesystem::filesystem_error: exit 1 and no field.
  const std::string long_name = "/tmp/" + std::string(5000, 'a') + ".nrrd";
  CHECK_THAT(error_of([&] { require_regular_file(long_name, "volume"); }),
             Contains("cannot open volume: File name too long"));
  const auto file = std::filesystem::temp_directory_path() / "meniscus-limits-regular.bin";
  std::ofstream(file, std::ios::binary) << "1234567";
  CHECK(require_regular_file(file) == 7);
}

TEST_CASE("an allocation that fails names what it was for", "[limits]") {
  std::vector<double> v;
  CHECK_THAT(error_of([&] { resize_or_fail(v, uint64_t(1) << 62, "huge.vtk", "samples (DIMENSIONS)"); }),
             Contains("huge.vtk: cannot allocate") && Contains("for samples (DIMENSIONS)"));
}

TEST_CASE("the allocation scope an exception left through is named afterwards", "[limits]") {
  try {
    const AllocationScope outer("capturing scene.toml");
    const AllocationScope inner("reading cloud.ply");
    throw std::bad_alloc();
  } catch (const std::bad_alloc&) {
    CHECK(AllocationScope::unwound() == "reading cloud.ply");
  }
  { const AllocationScope fresh("meshing x.nrrd"); }
  CHECK(AllocationScope::unwound().empty());
}

}  // namespace meniscus::limits
