// Checks of untrusted input run in a fresh process (this test program started again); this
// process survives whatever the check does and says why.
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/core/contained_check.h"

#if defined(__SANITIZE_ADDRESS__)  // GCC
#define MENISCUS_TEST_ASAN 1
#elif defined(__has_feature)  // clang
#if __has_feature(address_sanitizer)
#define MENISCUS_TEST_ASAN 1
#endif
#endif

namespace meniscus {
namespace {

// The checks, registered at static initialisation as a product file registers its own; each
// takes its behaviour from the argument.
const ContainedCheck check("contained-check-tests", [](const std::string& what) -> std::string {
  if (what == "ok") return "";
  if (what == "say") return "bad header";
  if (what == "throw") throw std::runtime_error("thrown header");
  if (what == "segv") std::raise(SIGSEGV);  // what heap corruption in a third-party reader ends in
  if (what == "abort") std::abort();
  if (what == "exit") std::exit(1);  // a sanitizer's report ends this way
  if (what == "hang")
    for (;;) pause();
  if (what == "big") {
    std::vector<char> big(size_t(8) << 30);  // 8 GiB under a 512 MiB cap
    return big.empty() ? "empty" : "";
  }
  return "unknown behaviour " + what;
});

}  // namespace

TEST_CASE("a contained check reports success, a message, a crash and a hang", "[contained]") {
  CHECK(check.run("ok", 10, 0).kind == ContainedOutcome::Kind::Succeeded);

  const ContainedOutcome said = check.run("say", 10, 0);
  CHECK(said.kind == ContainedOutcome::Kind::Failed);
  CHECK(said.message == "bad header");
  const ContainedOutcome thrown = check.run("throw", 10, 0);
  CHECK(thrown.kind == ContainedOutcome::Kind::Failed);
  CHECK(thrown.message == "thrown header");

  const ContainedOutcome segv = check.run("segv", 10, 0);
  CHECK(segv.kind == ContainedOutcome::Kind::Crashed);
  CHECK(segv.message.find("signal 11") == 0);
  CHECK(check.run("abort", 10, 0).kind == ContainedOutcome::Kind::Crashed);
  const ContainedOutcome exited = check.run("exit", 10, 0);
  CHECK(exited.kind == ContainedOutcome::Kind::Crashed);
  CHECK(exited.message.find("exited with status 1") == 0);

  const ContainedOutcome hung = check.run("hang", 1, 0);
  CHECK(hung.kind == ContainedOutcome::Kind::TimedOut);
}

// The regression: checks once ran in a bare fork() of this process, which under
// AddressSanitizer deadlocked in the child's first allocation whenever another thread held the
// allocator's lock at the fork (the .vdb fuzz target hung on its first valid seed). Here other
// threads allocate without pause while checks run; every check must end, and end well.
TEST_CASE("a contained check is not stalled by other threads holding locks at the moment it starts", "[contained]") {
  std::atomic<bool> stop{false};
  std::vector<std::thread> allocators;
  for (int t = 0; t < 3; ++t)
    allocators.emplace_back([&stop] {
      while (!stop.load(std::memory_order_relaxed)) {
        std::vector<std::unique_ptr<int[]>> blocks;
        for (int i = 0; i < 64; ++i) blocks.emplace_back(new int[size_t(16 + i * 40)]);
      }
    });
  int succeeded = 0;
  constexpr int kChecks = 20;
  for (int i = 0; i < kChecks; ++i) succeeded += check.run("ok", 20, 0).kind == ContainedOutcome::Kind::Succeeded;
  stop = true;
  for (std::thread& t : allocators) t.join();
  CHECK(succeeded == kChecks);
}

TEST_CASE("a contained check cannot take more memory than its cap", "[contained]") {
  const ContainedOutcome outcome = check.run("big", 10, 512ull << 20);
#if MENISCUS_TEST_ASAN
  // ASan's operator new does not throw when its capped allocator refuses: it reports and exits.
  CHECK(outcome.kind == ContainedOutcome::Kind::Crashed);
#else
  CHECK(outcome.kind == ContainedOutcome::Kind::Failed);
  CHECK(outcome.message.find("more memory") != std::string::npos);
#endif
}

}  // namespace meniscus
