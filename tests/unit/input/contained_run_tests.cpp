// Work that may crash or hang runs in a child process; this process survives and says why.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <stdexcept>
#include <vector>

#include "engine/core/contained_run.h"

namespace meniscus {

TEST_CASE("a contained run reports success, a message, a crash and a hang", "[contained]") {
  CHECK(run_contained([] { return std::string(); }, 10, 0).kind == ContainedOutcome::Kind::Succeeded);

  const ContainedOutcome failed = run_contained([]() -> std::string { throw std::runtime_error("bad header"); }, 10, 0);
  CHECK(failed.kind == ContainedOutcome::Kind::Failed);
  CHECK(failed.message == "bad header");

  const ContainedOutcome crashed = run_contained(
      []() -> std::string {
        std::raise(SIGSEGV);  // what heap corruption in a third-party reader ends in
        return "";
      },
      10, 0);
  CHECK(crashed.kind == ContainedOutcome::Kind::Crashed);
  CHECK(crashed.message.find("signal 11") == 0);

  const ContainedOutcome hung = run_contained(
      []() -> std::string {
        for (;;) pause();
      },
      1, 0);
  CHECK(hung.kind == ContainedOutcome::Kind::TimedOut);
}

#if !defined(__SANITIZE_ADDRESS__)
TEST_CASE("a contained run cannot take more memory than its cap", "[contained]") {
  const ContainedOutcome outcome = run_contained(
      [] {
        std::vector<char> big(size_t(8) << 30);  // 8 GiB under a 512 MiB cap
        return std::string(big.empty() ? "empty" : "");
      },
      10, 512ull << 20);
  CHECK(outcome.kind == ContainedOutcome::Kind::Failed);
  CHECK(outcome.message.find("more memory") != std::string::npos);
}
#endif

}  // namespace meniscus
