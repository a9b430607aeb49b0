// NRRD with attached data (.nrrd) through load_volume, as `meniscus mesh head.nrrd` reads it.
#include "sim/histopyramid/volume_io.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const auto file = fuzz::write_file("input.nrrd", data, size);
  fuzz::expect_clean("nrrd", [&] { sim::load_volume(file.string()); });
  return 0;
}
