#include "tests/fuzz/fuzz_harness.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

#include "engine/core/error.h"

namespace meniscus::fuzz {
namespace {

struct Counts {
  std::string target;
  uint64_t successes = 0, named_errors = 0, unnamed_errors = 0;
};

Counts& counts() {
  static Counts c;
  return c;
}

void write_counts() {
  const Counts& c = counts();
  std::error_code ignored;
  std::filesystem::remove_all(scratch_dir(), ignored);
  const char* stats = std::getenv("MENISCUS_FUZZ_STATS");
  if (!stats || c.target.empty()) return;
  std::ofstream out(stats, std::ios::app);
  out << c.target << " successes=" << c.successes << " named_errors=" << c.named_errors
      << " unnamed_errors=" << c.unnamed_errors << "\n";
}

bool verbose() {
  static const bool v = std::getenv("MENISCUS_FUZZ_VERBOSE") != nullptr;
  return v;
}

bool lenient() {
  const char* v = std::getenv("MENISCUS_FUZZ_LENIENT");
  return v && std::string(v) == "1";
}

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "meniscus fuzz finding: %s\n", what.c_str());
  std::abort();
}

}  // namespace

const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "meniscus-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data())) finding("cannot create a scratch folder");
    return std::filesystem::path(pattern);
  }();
  // Registered once `dir` is built, so at exit it runs before `dir` is destroyed (the reverse
  // order) and can still remove the folder.
  [[maybe_unused]] static const int at_exit = std::atexit(write_counts);
  return dir;
}

std::filesystem::path write_file(std::string_view name, const uint8_t* data, size_t size) {
  const std::filesystem::path path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  if (!out) finding("cannot write " + path.string());
  return path;
}

void expect_clean(std::string_view target, const std::function<void()>& read) {
  Counts& c = counts();
  if (c.target.empty()) c.target = target;
  try {
    read();
    ++c.successes;
    return;
  } catch (const InputError& error) {
    const std::string message = error.what();
    if (verbose()) std::fprintf(stderr, "input error: %s\n", message.c_str());
    if (message.find(scratch_dir().string()) != std::string::npos) {
      ++c.named_errors;
      return;
    }
    ++c.unnamed_errors;
    if (!lenient()) finding("an input error that names no file: " + message);
  } catch (const std::exception& error) {
    if (verbose()) std::fprintf(stderr, "other error: %s\n", error.what());
    ++c.unnamed_errors;
    if (!lenient()) finding(std::string("not an input error: ") + error.what());
  }
}

}  // namespace meniscus::fuzz
