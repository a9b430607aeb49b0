#include <cstring>
#include <string>

#include "cuda_cpu/cub.h"
#include "memory.h"
#include "report.h"
#include "streams.h"

namespace cuda_cpu {

std::string cub_storage_problem(const void* storage, size_t bytes, long long items) {
  const size_t needed = cub_temp_bytes(items);
  if (bytes < needed)
    return "temp_storage_bytes is " + std::to_string(bytes) + " but " + std::to_string(items) + " items need " +
           std::to_string(needed) + " (the size the first call returned for them)";
  if (std::string problem = device_range_problem(storage, needed); !problem.empty())
    return "the temporary storage: " + problem;
  return "";
}

void cub_enqueue(const char* algorithm, cudaStream_t stream, void* storage, size_t bytes, std::function<void()> work) {
  enqueue(stream, algorithm, [storage, bytes, work = std::move(work)] {
    std::memset(storage, 0xCB, bytes);
    work();
  });
}

void cub_block_defect(const char* what, int thread, int threads, const std::source_location& where) {
  if (thread < 0) fatal("%s (%d threads) at %s:%u", what, threads, where.file_name(), where.line());
  fatal("%s at %s:%u: thread %d of %d did not take part", what, where.file_name(), where.line(), thread, threads);
}

}  // namespace cuda_cpu
