#pragma once
// What every benchmark does the same way: the thread count and the memory policy under which
// ours and the peer are timed, and one JSON object per output line.
#include <tbb/global_control.h>

#include <memory>

#include "engine/profile/json_writer.h"

namespace meniscus::bench {

// Limits TBB (ours and the peers') to `threads` for the returned object's lifetime, and keeps
// freed memory in the heap: large blocks are otherwise mmap'd and unmapped on every run, and
// page faults are then what a run measures (on this VM they cost more than the algorithms; the
// peers reallocate their outputs every run as we do).
std::unique_ptr<tbb::global_control> benchmark_environment(int threads);

// Prints the object as one line and flushes, so a killed run keeps what it measured.
void print_line(const profile::JsonWriter& json);

}  // namespace meniscus::bench
