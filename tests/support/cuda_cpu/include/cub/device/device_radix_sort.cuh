#pragma once
// Stand-in for CUB in the CPU execution layer (see cuda_cpu/cub.h).
#include "cuda_cpu/cub.h"
