#include "engine/core/log.h"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace meniscus::log {
namespace {
std::atomic<bool> g_quiet{false};
std::mutex g_mutex;

void write(const char* level, std::string_view message) {
  std::lock_guard lock(g_mutex);
  std::fprintf(stderr, "meniscus: %s%.*s\n", level, static_cast<int>(message.size()), message.data());
}
}  // namespace

void info(std::string_view message) {
  if (!g_quiet) write("", message);
}
void warn(std::string_view message) { write("warning: ", message); }
void error(std::string_view message) { write("error: ", message); }
void set_quiet(bool quiet) { g_quiet = quiet; }

}  // namespace meniscus::log
