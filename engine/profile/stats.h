#pragma once
// Order statistics of timing samples.
#include <cstddef>
#include <vector>

namespace meniscus::profile {

struct Summary {
  size_t count = 0;
  double min = 0, median = 0, p95 = 0, p99 = 0, max = 0, mean = 0;
};

// Percentiles interpolate linearly between the closest ranks (numpy.percentile's default,
// "linear"): the q-th percentile of sorted x[0..n-1] is at fractional rank q/100 * (n - 1).
// An empty sample set gives count 0 and zeros, so a capture of a pass that never ran still
// writes a well-formed file.
Summary summarize(std::vector<double> samples);
double percentile_sorted(const std::vector<double>& sorted, double q);

}  // namespace meniscus::profile
