#pragma once
// Device memory: every allocation in one registry, filled with the schedule's poison byte when
// made, fenced by guard bytes before and after (poisoned for AddressSanitizer where it runs,
// checked after every stream operation where it does not), and counted against the limit.
#include <cstddef>
#include <cstdint>
#include <source_location>
#include <string>

#include "cuda_cpu/runtime_api.h"

namespace cuda_cpu {

cudaError_t allocate_device(void** pointer, size_t bytes, const std::source_location& where);
cudaError_t free_device(void* pointer);
// Memory mapped from outside (external memory): checked like device memory, never freed here.
void register_external(void* pointer, size_t bytes);
void unregister_external(void* pointer);

// Whether [pointer, pointer + bytes) lies inside one allocation; "" if so, else why not.
std::string device_range_problem(const void* pointer, size_t bytes);
bool is_device_pointer(const void* pointer);

// Fatal if any guard byte changed (something wrote past an allocation); `after` names the work.
void check_guards(const std::string& after);

}  // namespace cuda_cpu
