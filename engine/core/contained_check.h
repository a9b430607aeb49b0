#pragma once
// Checking untrusted input in a fresh process: this executable started again
// (/proc/self/exe), told by its environment which registered check to run on what. The
// process a bare fork() makes inherits every lock another thread held at that instant (the
// allocator's, a library's registry mutex), and can deadlock on the first allocation: the fuzz
// target for .vdb files hung that way on its first valid seed, under AddressSanitizer, whose
// allocator takes no lock around fork(). A fresh image has no other threads, no inherited locks
// and default signal handlers.
//
// A check is a static ContainedCheck in the translation unit that needs it. In the fresh
// process its constructor runs the check during static initialisation — before main(), so the
// same works from the `meniscus` executable, a test program or a fuzz target — reports on a pipe
// and exits.
#include <string>

namespace meniscus {

struct ContainedOutcome {
  enum class Kind { Succeeded, Failed, Crashed, TimedOut };
  Kind kind = Kind::Succeeded;
  std::string message;  // Failed: what the check said; Crashed: the signal or exit status; TimedOut: how long
};

class ContainedCheck {
 public:
  // `check` returns "" when the input is good, otherwise a message; what it throws is reported
  // as its message. It runs in a process of its own, before main(): it may use only what is
  // initialised by then (shared libraries, function-local statics), not other files' globals.
  using Check = std::string (*)(const std::string& argument);
  ContainedCheck(const char* name, Check check);
  ContainedCheck(const ContainedCheck&) = delete;
  ContainedCheck& operator=(const ContainedCheck&) = delete;

  // Runs the check on `argument` in a fresh process with its output discarded, at most
  // `timeout_seconds`, its address space capped at `memory_limit_bytes` (0: no cap; under
  // AddressSanitizer, which reserves terabytes of address space, its allocator's largest
  // allocation and resident memory are capped instead). A process that dies by a signal or
  // exits without a report (a sanitizer's report) is Crashed.
  ContainedOutcome run(const std::string& argument, unsigned timeout_seconds,
                       unsigned long long memory_limit_bytes) const;

 private:
  const char* name_;
};

}  // namespace meniscus
