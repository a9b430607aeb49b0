#include "engine/core/input_limits.h"

#include <unistd.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <system_error>

namespace meniscus::limits {
namespace {

std::string limit_message(const std::filesystem::path& file, std::string_view field, const std::string& declared,
                          uint64_t limit, std::string_view what) {
  return file.string() + ": field '" + std::string(field) + "': declares " + declared + " " + std::string(what) +
         ", over the limit of " + std::to_string(limit) + " " + std::string(what) + " (engine/core/input_limits.h)";
}

thread_local std::vector<std::string> scopes;
thread_local std::string last_unwound;

}  // namespace

void fail(const std::filesystem::path& file, const std::string& what) { throw InputError(file.string() + ": " + what); }

void check_declared(const std::filesystem::path& file, std::string_view field, uint64_t declared, uint64_t limit,
                    std::string_view what) {
  if (declared > limit) throw InputError(limit_message(file, field, std::to_string(declared), limit, what));
}

void check_declared(const std::filesystem::path& file, std::string_view field, const std::string& declared_text,
                    uint64_t declared, uint64_t limit, std::string_view what) {
  if (declared > limit) throw InputError(limit_message(file, field, declared_text, limit, what));
}

uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
}

void check_memory(const std::filesystem::path& file, std::string_view field, uint64_t bytes, std::string_view what) {
  const uint64_t available = available_memory_bytes();
  if (bytes > available)
    throw InputError(file.string() + ": field '" + std::string(field) + "': " + std::string(what) + " need " +
                     bytes_text(bytes) + ", more than the " + bytes_text(available) + " of memory available");
}

uint64_t require_regular_file(const std::filesystem::path& file, std::string_view role) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(file, error);
  const std::string cannot_open = file.string() + ": cannot open " + std::string(role) + ": ";
  if (error && error != std::errc::no_such_file_or_directory) throw InputError(cannot_open + error.message());
  if (!std::filesystem::exists(status)) throw InputError(cannot_open + "no such file");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(file.string() + ": " + std::string(role) +
                     " is not a regular file (a directory, a device such as /dev/zero, or a pipe)");
  const uint64_t size = std::filesystem::file_size(file, error);
  if (error) throw InputError(cannot_open + error.message());
  check_declared(file, "file size", size, kMaxFileBytes, "bytes");
  return size;
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

std::string bytes_text(uint64_t bytes) {
  char text[64];
  if (bytes < 1024)
    std::snprintf(text, sizeof(text), "%llu bytes", static_cast<unsigned long long>(bytes));
  else if (bytes < (uint64_t(1) << 20))
    std::snprintf(text, sizeof(text), "%.1f KiB", double(bytes) / 1024.0);
  else if (bytes < (uint64_t(1) << 30))
    std::snprintf(text, sizeof(text), "%.1f MiB", double(bytes) / 1048576.0);
  else
    std::snprintf(text, sizeof(text), "%.1f GiB", double(bytes) / 1073741824.0);
  return text;
}

AllocationScope::AllocationScope(std::string what) : exceptions_at_entry_(std::uncaught_exceptions()) {
  scopes.push_back(std::move(what));
  last_unwound.clear();
}

AllocationScope::~AllocationScope() {
  // Unwinding: the innermost scope (destroyed first) is the one that says most.
  if (std::uncaught_exceptions() > exceptions_at_entry_ && last_unwound.empty()) last_unwound = scopes.back();
  scopes.pop_back();
}

std::string AllocationScope::unwound() { return last_unwound; }

}  // namespace meniscus::limits
