#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "report.h"

#if MENISCUS_CUDA_CPU_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

extern "C" void meniscus_cuda_cpu_switch(void** save_sp, void* load_sp);

namespace cuda_cpu {
namespace {

thread_local Fiber* running = nullptr;

}  // namespace

Fiber::Fiber(size_t stack_bytes) {
  const size_t page = size_t(sysconf(_SC_PAGESIZE));
  mapped_ = (stack_bytes + page - 1) / page * page + page;
  stack_ = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (stack_ == MAP_FAILED) fatal("cannot map a %zu-byte fiber stack", mapped_);
  mprotect(stack_, page, PROT_NONE);  // overflow faults instead of corrupting the next stack
  // The first switch in "returns" into entry() with the stack aligned as after a call:
  // [mxcsr, fpu cw, pad][r15 r14 r13 r12 rbx rbp][entry][0].
  auto* top = reinterpret_cast<uint64_t*>((reinterpret_cast<uintptr_t>(stack_) + mapped_) & ~uintptr_t(15));
  uint64_t* frame = top - 10;
  std::memset(frame, 0, 10 * sizeof(uint64_t));
  const uint32_t mxcsr = 0x1F80, fpu_control = 0x037F;  // the ABI's defaults
  std::memcpy(frame, &mxcsr, 4);
  std::memcpy(reinterpret_cast<char*>(frame) + 4, &fpu_control, 2);
  frame[8] = reinterpret_cast<uint64_t>(&Fiber::entry);
  sp_ = frame;
}

Fiber::~Fiber() {
  if (stack_ && stack_ != MAP_FAILED) munmap(stack_, mapped_);
}

void Fiber::entry() {
#if MENISCUS_CUDA_CPU_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &running->caller_bottom_, &running->caller_size_);
#endif
  for (;;) {
    Fiber* self = running;
    (*self->task_)();
    self->task_ = nullptr;
    self->switch_out(/*finished=*/true);
  }
}

void Fiber::switch_in() {
  Fiber* outer = running;
  running = this;
#if MENISCUS_CUDA_CPU_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, static_cast<char*>(stack_), mapped_);
  meniscus_cuda_cpu_switch(&caller_sp_, sp_);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  meniscus_cuda_cpu_switch(&caller_sp_, sp_);
#endif
  running = outer;
}

void Fiber::switch_out(bool finished) {
  finished_ = finished;
#if MENISCUS_CUDA_CPU_ASAN
  // A finished task's frames are gone: no fake stack to keep.
  __sanitizer_start_switch_fiber(finished ? nullptr : &fake_stack_, caller_bottom_, caller_size_);
  meniscus_cuda_cpu_switch(&sp_, caller_sp_);
  __sanitizer_finish_switch_fiber(fake_stack_, &caller_bottom_, &caller_size_);
#else
  meniscus_cuda_cpu_switch(&sp_, caller_sp_);
#endif
}

bool Fiber::resume() {
  finished_ = false;
  switch_in();
  return finished_;
}

void Fiber::suspend() {
  if (!running) fatal("a barrier or warp collective was reached outside a kernel");
  running->switch_out(/*finished=*/false);
}

}  // namespace cuda_cpu
