#pragma once
// launch<Kernel>({grid, block, shared_bytes, stream}, args...) is Kernel<<<grid, block,
// shared_bytes, stream>>>(args...). The .cu files launch through it rather than with the triple
// chevrons so that the same source also compiles with g++ against the CPU execution layer
// (tests/support/cuda_cpu), where it runs the kernel's blocks on TBB and its threads as fibers;
// the kernel as a template argument gives that layer its name for reports.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace meniscus::sim {

// Blocks of `threads` threads enough for n items, a thread each.
inline unsigned blocks_for(size_t n, int threads) { return unsigned((n + size_t(threads) - 1) / size_t(threads)); }

struct LaunchShape {
  dim3 grid;
  dim3 block;
  size_t shared_bytes = 0;
  cudaStream_t stream = nullptr;
};

template <auto Kernel, class... Args>
void launch(const LaunchShape& shape, Args&&... args) {
#if defined(MENISCUS_CUDA_ON_CPU)
  cuda_cpu::launch<Kernel>(shape.grid, shape.block, shape.shared_bytes, shape.stream, std::forward<Args>(args)...);
#else
  Kernel<<<shape.grid, shape.block, shape.shared_bytes, shape.stream>>>(std::forward<Args>(args)...);
#endif
}

}  // namespace meniscus::sim
