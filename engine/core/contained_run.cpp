#include "engine/core/contained_run.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#define MENISCUS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MENISCUS_ASAN 1
#endif
#endif

namespace meniscus {
namespace {

constexpr size_t kMaxMessage = 4000;  // below a pipe's buffer: the child's write never blocks

[[noreturn]] void child(int report, const std::function<std::string()>& work, unsigned timeout_seconds,
                        unsigned long long memory_limit_bytes) {
  // A corrupt file can make a reader print gigabytes of complaints.
  const int null = open("/dev/null", O_WRONLY);
  if (null >= 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
  }
  alarm(timeout_seconds);
#ifndef MENISCUS_ASAN
  if (memory_limit_bytes) {
    const rlimit cap{rlim_t(memory_limit_bytes), rlim_t(memory_limit_bytes)};
    setrlimit(RLIMIT_AS, &cap);
  }
#else
  (void)memory_limit_bytes;
#endif
  std::string message;
  try {
    message = work();
  } catch (const std::bad_alloc&) {
    message = "needs more memory than the check allows (" + std::to_string(memory_limit_bytes >> 20) + " MiB)";
  } catch (const std::exception& error) {
    message = error.what();
  } catch (...) {
    message = "an unknown exception";
  }
  if (message.size() > kMaxMessage) message.resize(kMaxMessage);
  if (!message.empty()) (void)!write(report, message.data(), message.size());
  _exit(message.empty() ? 0 : 2);  // no atexit handlers or static destructors of the parent's state
}

}  // namespace

ContainedOutcome run_contained(const std::function<std::string()>& work, unsigned timeout_seconds,
                               unsigned long long memory_limit_bytes) {
  int pipe_ends[2];
  if (pipe(pipe_ends) != 0) throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::fflush(nullptr);  // buffered output would otherwise be written twice
  const pid_t pid = fork();
  if (pid < 0) {
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    throw std::runtime_error(std::string("cannot start a checking process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    close(pipe_ends[0]);
    child(pipe_ends[1], work, timeout_seconds, memory_limit_bytes);
  }
  close(pipe_ends[1]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string message;
  char buffer[1024];
  for (ssize_t n; (n = read(pipe_ends[0], buffer, sizeof(buffer))) > 0 || (n < 0 && errno == EINTR);)
    if (n > 0) message.append(buffer, size_t(n));
  close(pipe_ends[0]);

  ContainedOutcome outcome;
  if (WIFEXITED(status)) {
    outcome.kind = WEXITSTATUS(status) == 0 ? ContainedOutcome::Kind::Succeeded : ContainedOutcome::Kind::Failed;
    outcome.message = message;
    if (outcome.kind == ContainedOutcome::Kind::Failed && message.empty())
      outcome.message = "exited with status " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    outcome.kind = ContainedOutcome::Kind::TimedOut;
    outcome.message = "took over " + std::to_string(timeout_seconds) + " s";
  } else {
    outcome.kind = ContainedOutcome::Kind::Crashed;
    const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    outcome.message = "signal " + std::to_string(signal) + " (" + (signal ? strsignal(signal) : "unknown") + ")";
  }
  return outcome;
}

}  // namespace meniscus
