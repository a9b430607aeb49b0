#pragma once
// Stand-in for CUDA's cuda_runtime.h in the CPU execution layer (MENISCUS_CUDA_ON_CPU): the
// project's .cu files compile with g++ against it and run on the host. A test tool, never
// linked into the product (see README.md in the folder above).
#include "cuda_cpu/device_api.h"
#include "cuda_cpu/kernel_launch.h"
#include "cuda_cpu/runtime_api.h"
#include "cuda_cpu/vector_types.h"
