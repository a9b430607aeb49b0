#pragma once
// Defects found while a kernel runs (a divergent warp collective, a write past an allocation,
// a block that can never leave a barrier) end the program with one message naming the kernel
// and the place: a test under the CPU execution layer fails loudly, never quietly wrong.
#include <string>
#include <string_view>

namespace cuda_cpu {

// The exit status of a program ended by a defect (EX_SOFTWARE).
inline constexpr int kDefectExitCode = 70;

[[noreturn]] void fatal(const char* format, ...) __attribute__((format(printf, 1, 2)));

// The kernel whose blocks the calling worker is running ("" outside kernels), for messages.
void set_current_kernel(std::string_view name);
const std::string& current_kernel();

// "name<args>" out of kernel_signature<Kernel>()'s __PRETTY_FUNCTION__ text.
std::string kernel_name_of(std::string_view signature);

}  // namespace cuda_cpu
