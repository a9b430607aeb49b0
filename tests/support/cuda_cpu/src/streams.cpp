#include "streams.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

#include "cuda_cpu/control.h"
#include "memory.h"
#include "report.h"

struct CUstream_st {
  bool blocking = true;
  uint64_t enqueued = 0;   // last sequence number handed out
  uint64_t completed = 0;  // last sequence number run
};

namespace cuda_cpu {
namespace {

using Clock = std::chrono::steady_clock;
// How long the queue may sit untouched while the host does something else.
constexpr auto kIdleHost = std::chrono::milliseconds(20);

struct Operation {
  CUstream_st* stream;
  uint64_t sequence;
  std::string what;
  std::function<void()> work;
};

struct Device {
  std::mutex mutex;
  std::condition_variable work_ready, work_done;
  std::deque<Operation> queue;
  CUstream_st legacy;
  std::set<CUstream_st*> streams;
  int hosts_waiting = 0;
  uint64_t host_waits = 0;
  Clock::time_point last_enqueue = Clock::now();
  std::thread thread;

  Device() {
    thread = std::thread([this] { run(); });
    thread.detach();  // lives as long as the process: static destructors may still free memory
  }

  void run() {
    std::unique_lock lock(mutex);
    for (;;) {
      work_ready.wait_for(lock, kIdleHost, [&] { return !queue.empty() && hosts_waiting > 0; });
      if (queue.empty() || (hosts_waiting == 0 && Clock::now() - last_enqueue < kIdleHost)) continue;
      const auto next = pick();
      Operation op = std::move(*next);
      queue.erase(next);
      lock.unlock();
      op.work();
      check_guards(op.what);
      lock.lock();
      op.stream->completed = op.sequence;
      work_done.notify_all();
    }
  }

  // The front of the queue, except that under the reverse and random schedules a stream made
  // with cudaStreamNonBlocking overtakes earlier work of the other streams, as CUDA allows:
  // work it needs from the legacy stream without waiting for it then is not there yet.
  std::deque<Operation>::iterator pick() {
    if (schedule().order != Order::kForward)
      for (auto it = queue.begin(); it != queue.end(); ++it)
        if (!it->stream->blocking) return it;
    return queue.begin();
  }

  template <class Done>
  void wait(std::unique_lock<std::mutex>& lock, Done done, bool counted = true) {
    if (counted) ++host_waits;
    ++hosts_waiting;
    work_ready.notify_one();
    work_done.wait(lock, done);
    --hosts_waiting;
  }
};

Device& device() {
  static Device* d = new Device;  // never destroyed, as its thread is never joined
  return *d;
}

}  // namespace

CUstream_st* create_stream(bool blocking) {
  Device& d = device();
  std::lock_guard lock(d.mutex);
  auto* s = new CUstream_st;
  s->blocking = blocking;
  d.streams.insert(s);
  return s;
}

void destroy_stream(CUstream_st* stream) {
  Device& d = device();
  std::unique_lock lock(d.mutex);
  d.wait(lock, [&] { return stream->completed == stream->enqueued; });
  d.streams.erase(stream);
  delete stream;
}

bool known_stream(cudaStream_t stream) {
  Device& d = device();
  std::lock_guard lock(d.mutex);
  return !stream || d.streams.count(stream);
}

Position enqueue(cudaStream_t stream, std::string what, std::function<void()> work) {
  Device& d = device();
  std::lock_guard lock(d.mutex);
  CUstream_st* s = stream ? stream : &d.legacy;
  const uint64_t sequence = ++s->enqueued;
  d.queue.push_back({s, sequence, std::move(what), std::move(work)});
  d.last_enqueue = Clock::now();
  return {s, sequence};
}

void run_until(const Position& at, bool host_wait) {
  Device& d = device();
  std::unique_lock lock(d.mutex);
  d.wait(lock, [&] { return at.stream->completed >= at.sequence; }, host_wait);
}

void run_stream(cudaStream_t stream) {
  Device& d = device();
  std::unique_lock lock(d.mutex);
  CUstream_st* s = stream ? stream : &d.legacy;
  // The legacy stream also waits for the blocking streams' earlier work; the device runs
  // everything in queue order, so waiting for the whole queue so far covers that.
  if (s == &d.legacy) {
    const size_t before = d.queue.size();
    (void)before;
    std::set<std::pair<CUstream_st*, uint64_t>> marks;
    for (CUstream_st* other : d.streams)
      if (other->blocking) marks.insert({other, other->enqueued});
    marks.insert({s, s->enqueued});
    d.wait(lock, [&] {
      for (const auto& [stream_at, sequence] : marks)
        if (stream_at->completed < sequence) return false;
      return true;
    });
    return;
  }
  const uint64_t sequence = s->enqueued;
  d.wait(lock, [&] { return s->completed >= sequence; });
}

void run_all() {
  Device& d = device();
  std::unique_lock lock(d.mutex);
  std::set<std::pair<CUstream_st*, uint64_t>> marks{{&d.legacy, d.legacy.enqueued}};
  for (CUstream_st* s : d.streams) marks.insert({s, s->enqueued});
  d.wait(lock, [&] {
    for (const auto& [s, sequence] : marks)
      if (s->completed < sequence) return false;
    return true;
  });
}

uint64_t host_waits() {
  Device& d = device();
  std::lock_guard lock(d.mutex);
  return d.host_waits;
}

bool stream_idle(cudaStream_t stream) {
  Device& d = device();
  std::lock_guard lock(d.mutex);
  const CUstream_st* s = stream ? stream : &d.legacy;
  return s->completed == s->enqueued;
}

}  // namespace cuda_cpu
