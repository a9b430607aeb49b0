#pragma once
// Running untrusted work in a forked child, so that a crash, a runaway allocation or a hang in
// it (a third-party reader meeting a corrupt file) ends the child and not this process.
//
// The child runs `work` with its output streams closed, its address space capped (when not
// built with AddressSanitizer, which needs a large one) and an alarm; it reports back the text
// `work` returns ("" for success) or the message of what it threw.
#include <functional>
#include <string>

namespace meniscus {

struct ContainedOutcome {
  enum class Kind { Succeeded, Failed, Crashed, TimedOut };
  Kind kind = Kind::Succeeded;
  std::string message;  // Failed: what the work said; Crashed: the signal's name
};

// `work` returns "" when all is well, or a message. `memory_limit_bytes` 0: no cap.
ContainedOutcome run_contained(const std::function<std::string()>& work, unsigned timeout_seconds,
                               unsigned long long memory_limit_bytes);

}  // namespace meniscus
