// NIfTI-1 (.nii) through load_volume, as `meniscus segment brain.nii` reads it.
#include "sim/histopyramid/volume_io.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const auto file = fuzz::write_file("input.nii", data, size);
  fuzz::expect_clean("nifti", [&] { sim::load_volume(file.string()); });
  return 0;
}
