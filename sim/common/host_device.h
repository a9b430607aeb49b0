#pragma once
// MENISCUS_HD marks arithmetic compiled for both backends, so the CPU and CUDA implementations
// of a stage run literally the same per-particle code.
#ifdef __CUDACC__
#define MENISCUS_HD __host__ __device__
#else
#define MENISCUS_HD
#endif
