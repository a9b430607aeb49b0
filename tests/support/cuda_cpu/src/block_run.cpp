#include "block_run.h"

#include <algorithm>
#include <cstdio>
#include <exception>

#include "report.h"

namespace cuda_cpu {
namespace {

constexpr uint32_t kWarp = 32;
#if MENISCUS_CUDA_CPU_ASAN
constexpr size_t kStackBytes = 1 << 20;  // instrumented frames are larger
#else
constexpr size_t kStackBytes = 256 << 10;
#endif

thread_local BlockRun* active_block = nullptr;

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::string where_text(const std::source_location& where) {
  return std::string(where.file_name()) + ":" + std::to_string(where.line());
}

// Called for every lane of every collective: the file names of one call site are one literal,
// so equal pointers settle it without reading the strings.
bool same_call(const std::source_location& a, const std::source_location& b) {
  if (a.line() != b.line() || a.column() != b.column()) return false;
  return a.file_name() == b.file_name() || std::string_view(a.file_name()) == b.file_name();
}

}  // namespace

ThreadCoordinates& this_thread() {
  if (!current_thread) fatal("threadIdx/blockIdx read outside a kernel");
  return *current_thread;
}

uint64_t warp_collective(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const std::source_location& where) {
  if (!active_block) fatal("%s at %s:%u outside a kernel", warp_op_name(op), where.file_name(), where.line());
  return active_block->collective(op, mask, value, arg, width, where);
}

void block_barrier(const std::source_location& where) {
  if (!active_block) fatal("__syncthreads at %s:%u outside a kernel", where.file_name(), where.line());
  active_block->barrier(where);
}

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::kShfl: return "__shfl_sync";
    case WarpOp::kShflUp: return "__shfl_up_sync";
    case WarpOp::kShflDown: return "__shfl_down_sync";
    case WarpOp::kShflXor: return "__shfl_xor_sync";
    case WarpOp::kBallot: return "__ballot_sync";
    case WarpOp::kAny: return "__any_sync";
    case WarpOp::kAll: return "__all_sync";
    case WarpOp::kReduceOr: return "__reduce_or_sync";
    case WarpOp::kReduceAnd: return "__reduce_and_sync";
    case WarpOp::kReduceAdd: return "__reduce_add_sync";
    case WarpOp::kReduceMin: return "__reduce_min_sync";
    case WarpOp::kReduceMax: return "__reduce_max_sync";
    case WarpOp::kSyncWarp: return "__syncwarp";
  }
  return "?";
}

void schedule_order(std::vector<uint32_t>& order, uint32_t n, const Schedule& schedule, uint64_t salt) {
  order.resize(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  if (schedule.order == Order::kReverse) std::reverse(order.begin(), order.end());
  if (schedule.order == Order::kRandom) {
    uint64_t state = splitmix64(schedule.seed ^ splitmix64(salt));
    for (uint32_t i = n; i > 1; --i) {
      state = splitmix64(state);
      std::swap(order[i - 1], order[state % i]);
    }
  }
}

Fiber* BlockRun::take_fiber() {
  if (!idle_.empty()) {
    Fiber* fiber = idle_.back();
    idle_.pop_back();
    return fiber;
  }
  fibers_.push_back(std::make_unique<Fiber>(kStackBytes));
  return fibers_.back().get();
}

void BlockRun::run(const GridLaunch& grid, uint3 block_idx, uint64_t block_linear) {
  grid_ = &grid;
  const uint32_t n = grid.block.x * grid.block.y * grid.block.z;
  threads_.assign(n, GpuThread{});
  if (tasks_.size() < n) {
    const size_t first = tasks_.size();
    tasks_.resize(n);
    for (size_t t = first; t < n; ++t)
      tasks_[t] = [this] {
        try {
          (*grid_->thread)();
        } catch (const std::exception& error) {
          fatal("a GPU thread threw: %s", error.what());
        }
      };
  }
  for (uint32_t t = 0; t < n; ++t) {
    ThreadCoordinates& c = threads_[t].coordinates;
    c.thread_idx = uint3{t % grid.block.x, t / grid.block.x % grid.block.y, t / (grid.block.x * grid.block.y)};
    c.block_idx = block_idx;
    c.block_dim = grid.block;
    c.grid_dim = grid.grid;
  }
  live_ = n;
  BlockRun* outer = active_block;
  active_block = this;
  for (uint64_t round = 0;; ++round) {
    // Between two barriers (or collectives) the threads run one after another, each until it
    // waits or exits, in the schedule's order: an unsynchronised read of another thread's
    // write then sees it or not depending on the schedule.
    schedule_order(order_, n, grid.schedule, block_linear * 0x100000001B3ull + round);
    for (const uint32_t t : order_)
      if (threads_[t].state == State::kNotStarted || threads_[t].state == State::kReady) resume(t);
    if (live_ == 0) break;
    if (complete_collectives()) continue;
    if (std::any_of(threads_.begin(), threads_.end(), [](const GpuThread& g) { return g.state == State::kAtCollective; }))
      report_stuck_collective();
    for (GpuThread& g : threads_)
      if (g.state == State::kAtBarrier) g.state = State::kReady;  // every live thread has arrived
  }
  active_block = outer;
}

void BlockRun::resume(uint32_t t) {
  GpuThread& g = threads_[t];
  if (g.state == State::kNotStarted) {
    g.fiber = take_fiber();
    g.fiber->assign(&tasks_[t]);
  }
  g.state = State::kRunning;
  running_ = t;
  ThreadCoordinates* outer = current_thread;
  current_thread = &g.coordinates;
  const bool finished = g.fiber->resume();
  current_thread = outer;
  if (finished) {
    g.state = State::kExited;
    idle_.push_back(g.fiber);
    g.fiber = nullptr;
    --live_;
  }
}

uint64_t BlockRun::collective(WarpOp op, unsigned mask, uint64_t value, int arg, int width, const std::source_location& where) {
  GpuThread& g = threads_[running_];
  const uint32_t lane = running_ % kWarp;
  if (!(mask >> lane & 1u))
    fatal("%s at %s: thread %u calls it with mask 0x%08x, which does not name its own lane %u", warp_op_name(op),
          where_text(where).c_str(), running_, mask, lane);
  if (width < 1 || width > int(kWarp) || (width & (width - 1)))
    fatal("%s at %s: width %d is not a power of two in [1, 32]", warp_op_name(op), where_text(where).c_str(), width);
  g.call = Call{op, mask, value, arg, width, where, 0};
  g.state = State::kAtCollective;
  Fiber::suspend();
  return threads_[running_].call.result;
}

void BlockRun::barrier(const std::source_location& where) {
  threads_[running_].barrier_at = where;
  threads_[running_].state = State::kAtBarrier;
  Fiber::suspend();
}

bool BlockRun::complete_collectives() {
  bool completed = false;
  const uint32_t n = uint32_t(threads_.size());
  for (uint32_t warp_begin = 0; warp_begin < n; warp_begin += kWarp) {
    const uint32_t warp_end = std::min(n, warp_begin + kWarp);
    for (uint32_t t = warp_begin; t < warp_end; ++t)
      if (threads_[t].state == State::kAtCollective && complete_group(warp_begin, warp_end, t)) completed = true;
  }
  return completed;
}

// Completes the call `lane` waits at if every lane its mask names waits at the same call.
bool BlockRun::complete_group(uint32_t warp_begin, uint32_t warp_end, uint32_t lane) {
  const Call& call = threads_[lane].call;
  const unsigned mask = call.mask;
  for (uint32_t l = 0; l < kWarp; ++l) {
    if (!(mask >> l & 1u)) continue;
    const uint32_t t = warp_begin + l;
    if (t >= warp_end) return false;
    const GpuThread& g = threads_[t];
    if (g.state != State::kAtCollective || g.call.op != call.op || g.call.mask != mask || !same_call(g.call.where, call.where))
      return false;
  }
  const uint64_t poison = 0x0101010101010101ull * grid_->schedule.poison;  // a lane that is not there
  const auto value_of = [&](uint32_t l) { return mask >> l & 1u ? threads_[warp_begin + l].call.value : poison; };
  uint64_t ballot = 0, sum = 0, all_or = 0, all_and = ~0ull, low = ~0ull, high = 0;
  for (uint32_t l = 0; l < kWarp; ++l) {
    if (!(mask >> l & 1u)) continue;
    const uint64_t v = threads_[warp_begin + l].call.value;
    ballot |= uint64_t(v != 0) << l;
    sum += uint32_t(v);
    all_or |= v;
    all_and &= v;
    low = std::min<uint64_t>(low, uint32_t(v));
    high = std::max<uint64_t>(high, uint32_t(v));
  }
  for (uint32_t l = 0; l < kWarp; ++l) {
    if (!(mask >> l & 1u)) continue;
    GpuThread& g = threads_[warp_begin + l];
    const int width = g.call.width, base = int(l) / width * width, local = int(l) - base;
    uint64_t result = 0;
    switch (call.op) {
      case WarpOp::kShfl: result = value_of(uint32_t(base + ((g.call.arg % width) + width) % width)); break;
      case WarpOp::kShflUp: result = local >= g.call.arg ? value_of(l - uint32_t(g.call.arg)) : g.call.value; break;
      case WarpOp::kShflDown:
        result = local + g.call.arg < width ? value_of(l + uint32_t(g.call.arg)) : g.call.value;
        break;
      case WarpOp::kShflXor: {
        const int source = int(l) ^ g.call.arg;
        result = source >= base && source < base + width ? value_of(uint32_t(source)) : g.call.value;
        break;
      }
      case WarpOp::kBallot: result = ballot; break;
      case WarpOp::kAny: result = ballot != 0; break;
      case WarpOp::kAll: result = ballot == (uint64_t(mask)); break;
      case WarpOp::kReduceOr: result = uint32_t(all_or); break;
      case WarpOp::kReduceAnd: result = uint32_t(all_and); break;
      case WarpOp::kReduceAdd: result = uint32_t(sum); break;
      case WarpOp::kReduceMin: result = low; break;
      case WarpOp::kReduceMax: result = high; break;
      case WarpOp::kSyncWarp: break;
    }
    g.call.result = result;
    g.state = State::kReady;
  }
  return true;
}

std::string BlockRun::describe_lane(uint32_t t, const Call& expected) const {
  if (t >= threads_.size()) return "is not in the block";
  const GpuThread& g = threads_[t];
  switch (g.state) {
    case State::kExited: return "has exited";
    case State::kAtBarrier: return "waits at __syncthreads at " + where_text(g.barrier_at);
    case State::kAtCollective:
      if (g.call.op != expected.op || !same_call(g.call.where, expected.where))
        return std::string("waits at ") + warp_op_name(g.call.op) + " at " + where_text(g.call.where);
      if (g.call.mask != expected.mask) {
        char text[64];
        std::snprintf(text, sizeof text, "is there with another mask (0x%08x)", g.call.mask);
        return text;
      }
      return "is there";
    default: return "has not arrived";
  }
}

void BlockRun::report_stuck_collective() {
  const uint32_t n = uint32_t(threads_.size());
  for (uint32_t t = 0; t < n; ++t) {
    if (threads_[t].state != State::kAtCollective) continue;
    const Call& call = threads_[t].call;
    const uint32_t warp_begin = t / kWarp * kWarp;
    std::string present, missing;
    for (uint32_t l = 0; l < kWarp; ++l) {
      if (!(call.mask >> l & 1u)) continue;
      const std::string state = describe_lane(warp_begin + l, call);
      if (state == "is there") present += (present.empty() ? "" : ",") + std::to_string(l);
      else missing += "\n  lane " + std::to_string(l) + " " + state;
    }
    const ThreadCoordinates& c = threads_[t].coordinates;
    fatal("divergent %s at %s in block (%u,%u,%u), warp %u, mask 0x%08x: lanes present %s; not all lanes named by "
          "the mask arrive:%s",
          warp_op_name(call.op), where_text(call.where).c_str(), c.block_idx.x, c.block_idx.y, c.block_idx.z,
          t / kWarp, call.mask, present.c_str(), missing.c_str());
  }
  fatal("a block can make no progress");
}

}  // namespace cuda_cpu
