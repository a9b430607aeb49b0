// OpenVDB level sets through read_vdb. OpenVDB itself is not hardened against corrupt files;
// read_vdb decodes each file in a fresh process first (engine/core/contained_check.h), so what
// this target checks is that a corrupt .vdb cannot take the calling process down, and that
// every refusal names the file.
#include "sim/levelset/vdb_io.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const auto file = fuzz::write_file("input.vdb", data, size);
  fuzz::expect_clean("vdb", [&] { sim::levelset::read_vdb(file); });
  return 0;
}
