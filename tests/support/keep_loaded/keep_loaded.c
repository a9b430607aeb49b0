// Preloaded into the sanitized test runs (LD_PRELOAD): keeps the Vulkan driver and validation
// layer loaded until the process ends. The Vulkan loader unloads them when the instance is
// destroyed, before LeakSanitizer looks at exit, which would leave their process-lifetime
// allocations with nameless frames that no suppression can match (sanitizer_leaks.supp names
// them by library). Preloading the libraries themselves would put their exported entry points
// (the validation layer exports vkGetDeviceProcAddr) ahead of the loader's: a device without
// the layer enabled then gets null function pointers. Opened RTLD_LOCAL | RTLD_NODELETE, their
// symbols stay out of the global scope and the loader's later dlopen/dlclose cannot unload them.
//
// MENISCUS_KEEP_LOADED: a colon-separated list of library names or paths. Only processes that
// use Vulkan load them (bash, python and Xvfb in the same test run do not).
// Built without sanitizers: it is preloaded into every process of the run.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

__attribute__((constructor)) static void keep_loaded(void) {
  const char* list = getenv("MENISCUS_KEEP_LOADED");
  if (!list || !dlopen("libvulkan.so.1", RTLD_LAZY | RTLD_NOLOAD)) return;
  char names[4096];
  strncpy(names, list, sizeof names - 1);
  names[sizeof names - 1] = '\0';
  char* rest = names;
  for (char* name; (name = strtok_r(rest, ":", &rest));) dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
}
