#include "engine/core/contained_check.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define MENISCUS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MENISCUS_ASAN 1
#endif
#endif

extern char** environ;

namespace meniscus {
namespace {

constexpr const char* kCheckVariable = "MENISCUS_CONTAINED_CHECK";
constexpr const char* kArgumentVariable = "MENISCUS_CONTAINED_ARGUMENT";
constexpr const char* kReportVariable = "MENISCUS_CONTAINED_REPORT_FD";
constexpr int kReportedFailure = 2;  // the check ran and said no; any other non-zero exit is a crash
constexpr size_t kMaxMessage = 4000;

[[noreturn]] void report_and_exit(const std::string& message) {
  const char* fd_text = std::getenv(kReportVariable);
  const int fd = fd_text ? std::atoi(fd_text) : -1;
  const std::string text = message.substr(0, kMaxMessage);
  if (fd >= 0 && !text.empty()) (void)!write(fd, text.data(), text.size());
  _exit(text.empty() ? 0 : kReportedFailure);  // no atexit handlers, no leak check of a process that never ran main
}

std::string failure_of(ContainedCheck::Check check, const std::string& argument) {
  try {
    const std::string message = check(argument);
    return message;
  } catch (const std::bad_alloc&) {
    return "needs more memory than the check allows";
  } catch (const std::exception& error) {
    return error.what()[0] ? error.what() : "an exception without a message";
  } catch (...) {
    return "an unknown exception";
  }
}

// Everything the child needs is built before fork(): between fork() and exec only
// async-signal-safe calls are made.
struct Launch {
  std::vector<std::string> environment;
  std::vector<char*> envp;
  int null_fd = -1;
};

}  // namespace

ContainedCheck::ContainedCheck(const char* name, Check check) : name_(name) {
  const char* wanted = std::getenv(kCheckVariable);
  if (!wanted || std::strcmp(wanted, name) != 0) return;
  const char* argument = std::getenv(kArgumentVariable);
  report_and_exit(failure_of(check, argument ? argument : ""));
}

ContainedOutcome ContainedCheck::run(const std::string& argument, unsigned timeout_seconds,
                                     unsigned long long memory_limit_bytes) const {
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
  Launch launch;
  std::string asan_options;
  for (char** e = environ; *e; ++e) {
    if (std::strncmp(*e, "ASAN_OPTIONS=", 13) == 0) asan_options = *e + 13;
    else if (std::strncmp(*e, "MENISCUS_CONTAINED_", 19) != 0) launch.environment.emplace_back(*e);
  }
#ifdef MENISCUS_ASAN
  // The child's output goes nowhere: symbolising its report would only cost time (seconds on a
  // loaded machine, past a check's timeout). A fault ends it as a signal, as it would end an
  // unsanitized one, and malloc may return null (operator new still reports and exits: ASan's
  // never throws bad_alloc).
  asan_options += std::string(asan_options.empty() ? "" : ":") +
                  "symbolize=0:allocator_may_return_null=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0";
  // AddressSanitizer reserves terabytes of shadow at start, so no address-space cap can apply;
  // its allocator is capped instead: one allocation, and the resident memory.
  if (memory_limit_bytes) {
    const std::string mib = std::to_string(std::max<unsigned long long>(memory_limit_bytes >> 20, 1));
    asan_options += ":max_allocation_size_mb=" + mib + ":hard_rss_limit_mb=" + mib;
  }
  memory_limit_bytes = 0;
#endif
  if (!asan_options.empty()) launch.environment.push_back("ASAN_OPTIONS=" + asan_options);
  launch.environment.push_back(std::string(kCheckVariable) + "=" + name_);
  launch.environment.push_back(std::string(kArgumentVariable) + "=" + argument);
  launch.environment.push_back(std::string(kReportVariable) + "=" + std::to_string(ends[1]));
  for (std::string& e : launch.environment) launch.envp.push_back(e.data());
  launch.envp.push_back(nullptr);
  launch.null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  char program_name[] = "meniscus-contained-check";
  char* argv[] = {program_name, nullptr};

  const pid_t pid = fork();
  if (pid < 0) {
    close(ends[0]);
    close(ends[1]);
    if (launch.null_fd >= 0) close(launch.null_fd);
    throw std::runtime_error(std::string("cannot start a checking process: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // A corrupt file can make a reader print gigabytes of complaints.
    if (launch.null_fd >= 0) {
      dup2(launch.null_fd, STDOUT_FILENO);
      dup2(launch.null_fd, STDERR_FILENO);
    }
    fcntl(ends[1], F_SETFD, 0);  // the report end survives exec
    if (memory_limit_bytes) {
      const rlimit cap{rlim_t(memory_limit_bytes), rlim_t(memory_limit_bytes)};
      setrlimit(RLIMIT_AS, &cap);
    }
    alarm(timeout_seconds);  // kept across exec; its default action ends the process
    execve("/proc/self/exe", argv, launch.envp.data());
    _exit(127);
  }
  close(ends[1]);
  if (launch.null_fd >= 0) close(launch.null_fd);
  std::string message;  // read to the end first: a child never blocks on a full pipe
  char buffer[1024];
  for (ssize_t n; (n = read(ends[0], buffer, sizeof(buffer))) > 0 || (n < 0 && errno == EINTR);)
    if (n > 0) message.append(buffer, size_t(n));
  close(ends[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }

  ContainedOutcome outcome;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    outcome.kind = ContainedOutcome::Kind::Succeeded;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == kReportedFailure && !message.empty()) {
    outcome.kind = ContainedOutcome::Kind::Failed;
    outcome.message = message;
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    outcome.kind = ContainedOutcome::Kind::TimedOut;
    outcome.message = "took over " + std::to_string(timeout_seconds) + " s";
  } else if (WIFSIGNALED(status)) {
    outcome.kind = ContainedOutcome::Kind::Crashed;
    outcome.message = "signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  } else {
    outcome.kind = ContainedOutcome::Kind::Crashed;  // a sanitizer's report, or exec failing (127)
    outcome.message = "exited with status " + std::to_string(WEXITSTATUS(status)) + " without a report";
  }
  return outcome;
}

}  // namespace meniscus
