#pragma once
// Kernel launches in the CPU execution layer. sim/common/cuda_launch.cuh's launch<Kernel>()
// comes here instead of to <<<grid, block, shared, stream>>>: the arguments are converted to
// the kernel's parameter types now (CUDA copies them at launch), and the grid is queued on the
// stream to run when the host next synchronises with it (streams.cpp).
#include <functional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuda_cpu/runtime_api.h"
#include "cuda_cpu/vector_types.h"

namespace cuda_cpu {

// Queues `thread` to run once per GPU thread of the grid (blocks on TBB, each block's threads
// as fibers). A bad configuration is reported as CUDA reports it: by the next cudaGetLastError.
void enqueue_kernel(std::string_view signature, dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream,
                    std::function<void()> thread);

template <auto Kernel>
constexpr std::string_view kernel_signature() {
  return __PRETTY_FUNCTION__;  // "... [with auto Kernel = name<args>; ...]": the name for reports
}

template <class... Parameters, class... Args>
std::tuple<std::decay_t<Parameters>...> bind_parameters(void (*)(Parameters...), Args&&... args) {
  return std::tuple<std::decay_t<Parameters>...>(std::forward<Args>(args)...);
}

template <auto Kernel, class... Args>
void launch(dim3 grid, dim3 block, size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  auto parameters = bind_parameters(Kernel, std::forward<Args>(args)...);
  // Each GPU thread gets its own copy of the parameters, as each reads them from constant memory.
  enqueue_kernel(kernel_signature<Kernel>(), grid, block, shared_bytes, stream, [parameters]() {
    auto own = parameters;
    std::apply(Kernel, own);
  });
}

}  // namespace cuda_cpu
