#pragma once
// What every fuzz target shares: the fuzzer's bytes become a file on disk (the readers take
// paths, and a file's name and neighbours are part of what they read), the reader runs on it,
// and the outcome is judged against DESIGN.md's rule for bad input: an InputError whose message
// names the file. Anything else — another exception type, or a message that names no file — is a
// finding and aborts, so libFuzzer keeps the input; crashes, hangs and sanitizer reports are
// libFuzzer's own.
//
// MENISCUS_FUZZ_STATS=<file>: at exit, append one line of counts (successes, clean errors,
// errors that name no file) to <file>; MENISCUS_FUZZ_LENIENT=1 counts unnamed errors instead of
// aborting on them (to measure a campaign rather than stop at the first);
// MENISCUS_FUZZ_VERBOSE=1 prints every input error.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>

namespace meniscus::fuzz {

// This process's own scratch folder (removed at exit), so parallel fuzzers never share files.
const std::filesystem::path& scratch_dir();

// Writes bytes to scratch_dir()/name and returns its path.
std::filesystem::path write_file(std::string_view name, const uint8_t* data, size_t size);

// Runs `read`; counts a return as a success and an InputError naming a file in scratch_dir() as
// a clean error. Aborts (a finding) on any other exception, or on an unnamed one unless lenient.
void expect_clean(std::string_view target, const std::function<void()>& read);

}  // namespace meniscus::fuzz
