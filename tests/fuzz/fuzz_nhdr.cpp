// NRRD with a detached header (.nhdr) and its data files. One input holds both: the header, a
// line "--data--", then the data. The data is written as data.raw and again split in three as
// slice1.raw .. slice3.raw, so headers naming either ("data file: data.raw", "data file:
// slice%d.raw 1 3 1") find files, and a mutated pattern reaches the slice expansion.
#include <algorithm>
#include <string>
#include <string_view>

#include "sim/histopyramid/volume_io.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kSeparator = "\n--data--\n";
  const size_t split = std::min(input.find(kSeparator), input.size());
  const size_t data_start = std::min(split + kSeparator.size(), input.size());
  const auto* bytes = reinterpret_cast<const uint8_t*>(input.data());
  const size_t data_size = input.size() - data_start;
  fuzz::write_file("data.raw", bytes + data_start, data_size);
  for (size_t slice = 0; slice < 3; ++slice) {
    const size_t begin = data_start + data_size * slice / 3, end = data_start + data_size * (slice + 1) / 3;
    fuzz::write_file("slice" + std::to_string(slice + 1) + ".raw", bytes + begin, end - begin);
  }
  const auto header = fuzz::write_file("input.nhdr", bytes, split);
  fuzz::expect_clean("nhdr", [&] { sim::load_volume(header.string()); });
  return 0;
}
