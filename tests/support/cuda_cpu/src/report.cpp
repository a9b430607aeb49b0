#include "report.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace cuda_cpu {
namespace {

thread_local std::string kernel;

}  // namespace

void fatal(const char* format, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "cuda_cpu: ");
  if (!kernel.empty()) std::fprintf(stderr, "kernel %s: ", kernel.c_str());
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::_Exit(kDefectExitCode);  // from any thread, at once: the state is not to be trusted
}

void set_current_kernel(std::string_view name) { kernel.assign(name); }
const std::string& current_kernel() { return kernel; }

std::string kernel_name_of(std::string_view signature) {
  const size_t at = signature.find("Kernel = ");
  if (at == std::string_view::npos) return std::string(signature);
  std::string_view name = signature.substr(at + 9);
  name = name.substr(0, name.find_first_of(";]"));
  // Drop the namespaces but keep template arguments.
  const size_t open = name.find('<');
  const size_t last_colon = name.substr(0, open).rfind("::");
  if (last_colon != std::string_view::npos) name.remove_prefix(last_colon + 2);
  return std::string(name);
}

}  // namespace cuda_cpu
