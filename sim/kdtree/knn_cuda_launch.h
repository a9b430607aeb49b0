#pragma once
// The boundary between kdtree_cuda.cpp (C++20, host orchestration) and knn_cuda.cu (nvcc,
// C++17): plain pointers to host arrays, no std::span. Internal to sim/kdtree.
#include <cstdint>
#include <string>

#include "sim/kdtree/kdtree_rules.h"

namespace meniscus::sim::kdtree {

struct CudaKnnInput {
  const KdNode* nodes;
  uint32_t node_count;
  uint32_t max_depth;
  const float *x, *y, *z;  // the tree's points in leaf order
  const uint32_t* ids;
  uint32_t points;
  const float* node_radius;  // Algorithm 7: R_i per node (+inf: none) and C_i
  const float* node_centre;
  float radius;              // R
  const uint32_t* order;     // query slots (tree point order) in Morton order
  uint32_t queries;
  uint32_t k, bins, iterations;
};

bool cuda_device_answers(std::string* why);

// Runs the queries; rows are the queried points' input indices. Throws DeviceError.
void run_knn_cuda(const CudaKnnInput& in, uint32_t* indices, float* distances, double* kernel_ms);

}  // namespace meniscus::sim::kdtree
