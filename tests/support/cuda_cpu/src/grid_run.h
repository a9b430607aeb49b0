#pragma once
#include "block_run.h"

namespace cuda_cpu {

// Runs every block of the grid, in parallel on TBB, taken in the schedule's block order.
void run_grid(const GridLaunch& launch);

}  // namespace cuda_cpu
