#include "cuda_cpu/control.h"

#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "report.h"

namespace cuda_cpu {
namespace {

// Fresh device memory reads as NaN/-1 under forward, as huge finite values under reverse, and
// as a seed-dependent byte under random: what a kernel reads before anyone wrote differs
// between two schedules, so CPU == CUDA cannot hold by accident.
uint8_t default_poison(const Schedule& s) {
  switch (s.order) {
    case Order::kForward: return 0xFF;
    case Order::kReverse: return 0x7F;
    case Order::kRandom: return uint8_t(0x80 | (s.seed * 0x9E3779B1u >> 24));
  }
  return 0xFF;
}

Schedule from_environment() {
  Schedule s;
  if (const char* text = std::getenv("MENISCUS_CUDA_CPU_SCHEDULE")) {
    try {
      s = parse_schedule(text);
    } catch (const std::invalid_argument& error) {
      fatal("MENISCUS_CUDA_CPU_SCHEDULE: %s", error.what());
    }
  }
  s.poison = default_poison(s);
  if (const char* text = std::getenv("MENISCUS_CUDA_CPU_POISON")) {
    char* end = nullptr;
    const unsigned long byte = std::strtoul(text, &end, 0);
    if (*text == '\0' || *end != '\0' || byte > 255) fatal("MENISCUS_CUDA_CPU_POISON: '%s' is not a byte", text);
    s.poison = uint8_t(byte);
  }
  return s;
}

size_t default_limit() {
  if (const char* text = std::getenv("MENISCUS_CUDA_CPU_MEMORY_LIMIT")) {
    char* end = nullptr;
    const unsigned long long bytes = std::strtoull(text, &end, 0);
    if (*text == '\0' || *end != '\0') fatal("MENISCUS_CUDA_CPU_MEMORY_LIMIT: '%s' is not a byte count", text);
    return size_t(bytes);
  }
  return size_t(8) << 30;
}

std::mutex mutex;
Schedule& current() {
  static Schedule s = from_environment();
  return s;
}
size_t& limit() {
  static size_t bytes = default_limit();
  return bytes;
}

}  // namespace

std::string Schedule::name() const {
  switch (order) {
    case Order::kForward: return "forward";
    case Order::kReverse: return "reverse";
    case Order::kRandom: return "random:" + std::to_string(seed);
  }
  return "?";
}

Schedule parse_schedule(const std::string& text) {
  Schedule s;
  if (text == "forward") s.order = Order::kForward;
  else if (text == "reverse") s.order = Order::kReverse;
  else if (text.rfind("random:", 0) == 0 && text.size() > 7) {
    size_t used = 0;
    s.order = Order::kRandom;
    s.seed = std::stoull(text.substr(7), &used);
    if (used != text.size() - 7) throw std::invalid_argument("'" + text + "': the seed is not a number");
  } else {
    throw std::invalid_argument("'" + text + "' is not forward, reverse or random:<seed>");
  }
  s.poison = default_poison(s);
  return s;
}

Schedule schedule() {
  std::lock_guard lock(mutex);
  return current();
}
void set_schedule(const Schedule& s) {
  std::lock_guard lock(mutex);
  current() = s;
}
size_t memory_limit() {
  std::lock_guard lock(mutex);
  return limit();
}
void set_memory_limit(size_t bytes) {
  std::lock_guard lock(mutex);
  limit() = bytes;
}

}  // namespace cuda_cpu
