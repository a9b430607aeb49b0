#include "memory.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "cuda_cpu/control.h"
#include "report.h"

#if MENISCUS_CUDA_CPU_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace cuda_cpu {
namespace {

constexpr size_t kGuard = 256;  // also the alignment cudaMalloc promises
constexpr uint8_t kGuardByte = 0xA5;

struct Allocation {
  size_t bytes = 0;
  size_t tail = 0;          // guard bytes after the end
  char* block = nullptr;    // what malloc gave; null for external memory
  std::source_location where;
};

std::mutex mutex;
std::map<uintptr_t, Allocation> allocations;  // by first byte
size_t in_use = 0;

// The allocation holding `pointer`, or end().
std::map<uintptr_t, Allocation>::iterator holding(const void* pointer) {
  const auto p = reinterpret_cast<uintptr_t>(pointer);
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin()) return allocations.end();
  --it;
  return p < it->first + std::max<size_t>(it->second.bytes, 1) ? it : allocations.end();
}

#if !MENISCUS_CUDA_CPU_ASAN
bool guard_intact(const char* begin, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i)
    if (uint8_t(begin[i]) != kGuardByte) return false;
  return true;
}
#endif

}  // namespace

size_t memory_in_use() {
  std::lock_guard lock(mutex);
  return in_use;
}

cudaError_t allocate_device(void** pointer, size_t bytes, const std::source_location& where) {
  if (!pointer) return cudaErrorInvalidValue;
  *pointer = nullptr;
  if (bytes == 0) return cudaSuccess;
  const size_t limit = memory_limit();
  std::lock_guard lock(mutex);
  if (bytes > limit || in_use > limit - bytes) return cudaErrorMemoryAllocation;
  const size_t tail = kGuard + (kGuard - bytes % kGuard) % kGuard;
  char* block = static_cast<char*>(std::aligned_alloc(kGuard, kGuard + bytes + tail));
  if (!block) return cudaErrorMemoryAllocation;
  char* user = block + kGuard;
  std::memset(block, kGuardByte, kGuard);
  std::memset(user, schedule().poison, bytes);
  std::memset(user + bytes, kGuardByte, tail);
#if MENISCUS_CUDA_CPU_ASAN
  __asan_poison_memory_region(block, kGuard);
  __asan_poison_memory_region(user + bytes, tail);
#endif
  allocations[reinterpret_cast<uintptr_t>(user)] = Allocation{bytes, tail, block, where};
  in_use += bytes;
  *pointer = user;
  return cudaSuccess;
}

cudaError_t free_device(void* pointer) {
  if (!pointer) return cudaSuccess;
  std::lock_guard lock(mutex);
  const auto it = allocations.find(reinterpret_cast<uintptr_t>(pointer));
  if (it == allocations.end()) {
    std::fprintf(stderr, "cuda_cpu: cudaFree(%p): not the start of a device allocation\n", pointer);
    return cudaErrorInvalidDevicePointer;
  }
  const Allocation a = it->second;
  allocations.erase(it);
  if (!a.block) return cudaSuccess;  // external: unmapped with its memory
  char* user = static_cast<char*>(pointer);
#if MENISCUS_CUDA_CPU_ASAN
  __asan_unpoison_memory_region(a.block, kGuard);
  __asan_unpoison_memory_region(user + a.bytes, a.tail);
#else
  if (!guard_intact(a.block, kGuard) || !guard_intact(user + a.bytes, a.tail))
    fatal("cudaFree: something wrote outside the %zu-byte allocation made at %s:%u", a.bytes, a.where.file_name(),
          a.where.line());
#endif
  in_use -= a.bytes;
  std::free(a.block);
  return cudaSuccess;
}

void register_external(void* pointer, size_t bytes) {
  std::lock_guard lock(mutex);
  allocations[reinterpret_cast<uintptr_t>(pointer)] = Allocation{bytes, 0, nullptr, std::source_location::current()};
}

void unregister_external(void* pointer) {
  std::lock_guard lock(mutex);
  allocations.erase(reinterpret_cast<uintptr_t>(pointer));
}

bool is_device_pointer(const void* pointer) {
  std::lock_guard lock(mutex);
  return holding(pointer) != allocations.end();
}

std::string device_range_problem(const void* pointer, size_t bytes) {
  char text[160];
  std::lock_guard lock(mutex);
  const auto it = holding(pointer);
  if (it == allocations.end()) {
    std::snprintf(text, sizeof text, "%p is not inside any device allocation", pointer);
    return text;
  }
  const uintptr_t offset = reinterpret_cast<uintptr_t>(pointer) - it->first;
  if (bytes > it->second.bytes - offset) {
    std::snprintf(text, sizeof text, "%zu bytes at offset %zu run past the end of a %zu-byte allocation (made at %s:%u)",
                  bytes, size_t(offset), it->second.bytes, it->second.where.file_name(), it->second.where.line());
    return text;
  }
  return "";
}

void check_guards(const std::string& after) {
#if !MENISCUS_CUDA_CPU_ASAN  // AddressSanitizer reports the access itself
  std::lock_guard lock(mutex);
  for (const auto& [begin, a] : allocations) {
    if (!a.block) continue;
    const char* user = reinterpret_cast<const char*>(begin);
    const bool before_ok = guard_intact(a.block, kGuard), after_ok = guard_intact(user + a.bytes, a.tail);
    if (!before_ok || !after_ok)
      fatal("%s wrote %s the %zu-byte device allocation made at %s:%u", after.c_str(),
            before_ok ? "past the end of" : "before the start of", a.bytes, a.where.file_name(), a.where.line());
  }
#else
  (void)after;
#endif
}

}  // namespace cuda_cpu
