#pragma once
// ITK 5.2's threshold level-set segmentation behind a plain interface, so segment_bench.cpp
// need not include ITK (its headers drag in half of its build settings). ITK evolves the same
// equation as sim/levelset/segmentation.h: PropagationScaling = 1 − w, CurvatureScaling = w,
// the data term of ThresholdSegmentationLevelSetFunction, to a MaximumRMSError.
#include <cstdint>
#include <string>
#include <vector>

namespace meniscus::bench {

struct ItkSegmentInput {
  const float* volume;         // the feature image, x fastest
  const float* initial;        // the initial level set on the same grid, negative inside
  uint32_t dims[3];
  float spacing[3];
  float lower, upper, curvature;
  double rms;                  // MaximumRMSError
  int max_iterations;
  int threads;                 // 1: the serial sparse field; more: ParallelSparseFieldLevelSetImageFilter
};

struct ItkSegmentRun {
  std::string filter;           // the class that ran
  double seconds = 0;           // Update() only, the speed image included (ITK builds it there)
  int iterations = 0;
  double rms = 0;               // the last iteration's RMS change
  std::vector<uint8_t> mask;    // 1 inside (the output level set < 0)
  std::string error;            // why nothing was measured
};

bool run_itk_segment(const ItkSegmentInput& in, ItkSegmentRun& out);
const char* itk_version();

}  // namespace meniscus::bench
