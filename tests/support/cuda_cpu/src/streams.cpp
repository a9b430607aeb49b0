#include "streams.h"

#include <deque>
#include <mutex>
#include <set>
#include <vector>

#include "memory.h"
#include "report.h"

struct CUstream_st {
  bool blocking = true;
  struct Operation {
    uint64_t sequence;
    std::string what;
    std::function<void()> work;
    std::vector<cuda_cpu::Position> after;  // other streams' work this must follow
  };
  std::deque<Operation> queue;
  uint64_t enqueued = 0;  // last sequence number handed out
};

namespace cuda_cpu {
namespace {

std::recursive_mutex mutex;
CUstream_st legacy;
std::set<CUstream_st*> streams;

CUstream_st* resolve(cudaStream_t stream) { return stream ? stream : &legacy; }

void run_locked(CUstream_st* s, uint64_t upto) {
  while (!s->queue.empty() && s->queue.front().sequence <= upto) {
    CUstream_st::Operation op = std::move(s->queue.front());
    s->queue.pop_front();
    for (const Position& p : op.after) run_locked(p.stream, p.sequence);
    op.work();
    check_guards(op.what);
  }
}

}  // namespace

CUstream_st* create_stream(bool blocking) {
  std::lock_guard lock(mutex);
  auto* s = new CUstream_st;
  s->blocking = blocking;
  streams.insert(s);
  return s;
}

void destroy_stream(CUstream_st* stream) {
  std::lock_guard lock(mutex);
  run_locked(stream, stream->enqueued);
  streams.erase(stream);
  delete stream;
}

bool known_stream(cudaStream_t stream) {
  std::lock_guard lock(mutex);
  return !stream || streams.count(stream);
}

Position enqueue(cudaStream_t stream, std::string what, std::function<void()> work) {
  std::lock_guard lock(mutex);
  CUstream_st* s = resolve(stream);
  std::vector<Position> after;
  if (s == &legacy) {
    for (CUstream_st* other : streams)
      if (other->blocking && other->enqueued) after.push_back({other, other->enqueued});
  } else if (s->blocking && legacy.enqueued) {
    after.push_back({&legacy, legacy.enqueued});
  }
  const uint64_t sequence = ++s->enqueued;
  s->queue.push_back({sequence, std::move(what), std::move(work), std::move(after)});
  return {s, sequence};
}

void run_until(const Position& at) {
  std::lock_guard lock(mutex);
  run_locked(at.stream, at.sequence);
}

void run_stream(cudaStream_t stream) {
  std::lock_guard lock(mutex);
  CUstream_st* s = resolve(stream);
  run_locked(s, s->enqueued);
}

void run_all() {
  std::lock_guard lock(mutex);
  run_locked(&legacy, legacy.enqueued);
  for (CUstream_st* s : streams) run_locked(s, s->enqueued);
}

bool stream_idle(cudaStream_t stream) {
  std::lock_guard lock(mutex);
  return resolve(stream)->queue.empty();
}

}  // namespace cuda_cpu
