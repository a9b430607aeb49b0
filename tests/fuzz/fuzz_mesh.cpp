// Meshes and point clouds through read_mesh, as `meniscus levelset`, `reconstruct` and the
// levelset stage read them. Built once per format: MENISCUS_FUZZ_SUFFIX is ".ply" or ".obj", and
// the corpus (ASCII or binary PLY seeds, OBJ seeds) steers the fuzzer.
#include "sim/common/mesh_reader.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const auto file = fuzz::write_file("input" MENISCUS_FUZZ_SUFFIX, data, size);
  fuzz::expect_clean(MENISCUS_FUZZ_NAME, [&] { sim::read_mesh(file); });
  return 0;
}
