#include "engine/profile/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace meniscus::profile {

double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return Summary::kNone;
  const double rank = std::clamp(q, 0.0, 100.0) / 100.0 * double(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(rank));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double t = rank - double(below);
  return sorted[below] + (sorted[above] - sorted[below]) * t;
}

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  if (std::any_of(samples.begin(), samples.end(), [](double v) { return std::isnan(v); }))
    throw std::invalid_argument("summarize: a timing sample is NaN");
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = percentile_sorted(samples, 50.0);
  s.p95 = percentile_sorted(samples, 95.0);
  s.p99 = percentile_sorted(samples, 99.0);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  return s;
}

}  // namespace meniscus::profile
