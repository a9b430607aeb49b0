#include "grid_run.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "report.h"

namespace cuda_cpu {

void run_grid(const GridLaunch& launch) {
  const uint64_t blocks = uint64_t(launch.grid.x) * launch.grid.y * launch.grid.z;
  std::vector<uint32_t> order;
  schedule_order(order, uint32_t(blocks), launch.schedule, 0x6B43A9B5u);
  tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size()), [&](const tbb::blocked_range<size_t>& range) {
    // Per worker: the fibers and stacks are reused from block to block and grid to grid.
    static thread_local BlockRun block;
    set_current_kernel(launch.name);
    for (size_t i = range.begin(); i != range.end(); ++i) {
      const uint32_t b = order[i];
      const uint3 index{b % launch.grid.x, b / launch.grid.x % launch.grid.y, b / (launch.grid.x * launch.grid.y)};
      block.run(launch, index, b);
    }
    set_current_kernel("");
  });
}

}  // namespace cuda_cpu
