#pragma once
// Order statistics of timing samples.
#include <cstddef>
#include <limits>
#include <vector>

namespace meniscus::profile {

struct Summary {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  size_t count = 0;
  double min = kNone, median = kNone, p95 = kNone, p99 = kNone, max = kNone, mean = kNone;
};

// Percentiles interpolate linearly between the closest ranks (numpy.percentile's default
// method, "linear"): the q-th percentile of sorted x[0..n-1] sits at fractional rank
// r = q/100 * (n - 1) and is x[floor(r)] + (x[floor(r)+1] - x[floor(r)]) * (r - floor(r)).
//
// No samples (a pass that never ran) gives count 0 and NaN for every statistic: zero would
// read as "free". The JSON writer turns NaN into null. A NaN sample is a bug upstream and
// throws std::invalid_argument (it would also break the sort).
Summary summarize(std::vector<double> samples);

// q in [0, 100]; `sorted` ascending. NaN for an empty vector.
double percentile_sorted(const std::vector<double>& sorted, double q);

}  // namespace meniscus::profile
