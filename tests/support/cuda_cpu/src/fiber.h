#pragma once
// A stackful fiber for one GPU thread at a time. Its entry loop runs the task it is given,
// switches back to the scheduler when the task returns, and takes the next task on the next
// resume, so a kernel whose threads never wait runs every thread of a block on one stack.
// Stacks are mmap'ed with a guard page below; switches are annotated for AddressSanitizer.
#include <cstddef>
#include <functional>

namespace cuda_cpu {

class Fiber {
 public:
  explicit Fiber(size_t stack_bytes);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Gives the fiber its next task (only while it has none).
  void assign(std::function<void()>* task) { task_ = task; }
  // Runs the fiber until its task suspends (suspend()) or returns. Returns true if it returned.
  bool resume();
  // From inside the fiber: back to whoever resumed it.
  static void suspend();

 private:
  static void entry();
  void switch_in();
  void switch_out(bool finished);

  void* stack_ = nullptr;  // mapping, guard page first
  size_t mapped_ = 0;
  void* sp_ = nullptr;         // the fiber's saved stack pointer
  void* caller_sp_ = nullptr;  // the scheduler's, while the fiber runs
  std::function<void()>* task_ = nullptr;
  bool finished_ = false;
  // AddressSanitizer's view of the stacks (unused without it).
  void* fake_stack_ = nullptr;
  const void* caller_bottom_ = nullptr;
  size_t caller_size_ = 0;
};

}  // namespace cuda_cpu
