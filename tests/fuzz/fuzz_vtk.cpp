// Legacy VTK STRUCTURED_POINTS (ASCII and BINARY) through load_volume.
#include "sim/histopyramid/volume_io.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const auto file = fuzz::write_file("input.vtk", data, size);
  fuzz::expect_clean("vtk", [&] { sim::load_volume(file.string()); });
  return 0;
}
