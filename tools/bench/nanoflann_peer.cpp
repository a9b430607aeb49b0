// nanoflann as the KNN peer: its own kd-tree build and knnSearch, one query per point.
#include <tbb/parallel_for.h>

#include <chrono>
#include <cmath>
#include <nanoflann.hpp>
#include <string>

#include "engine/profile/cpu_timer.h"
#include "tools/bench/peers.h"

namespace meniscus::bench {
namespace {

struct Cloud {
  std::span<const glm::vec3> points;
  size_t kdtree_get_point_count() const { return points.size(); }
  float kdtree_get_pt(size_t i, size_t axis) const { return points[i][int(axis)]; }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};

using Index = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<float, Cloud>, Cloud, 3, uint32_t>;
using Clock = std::chrono::steady_clock;
using profile::ms_since;

}  // namespace

std::optional<KnnPeerResult> nanoflann_knn(std::span<const glm::vec3> points, uint32_t k, std::span<const uint32_t> order) {
  KnnPeerResult result;
  const Cloud cloud{points};
  auto start = Clock::now();
  Index index(3, cloud, nanoflann::KDTreeSingleIndexAdaptorParams(10));
  index.buildIndex();
  result.build_ms = ms_since(start);

  result.kth_distance.resize(points.size());
  start = Clock::now();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size(), 128), [&](const tbb::blocked_range<size_t>& range) {
    std::vector<uint32_t> indices(k);
    std::vector<float> d2(k);
    for (size_t at = range.begin(); at != range.end(); ++at) {
      const uint32_t i = order[at];
      const float q[3] = {points[i].x, points[i].y, points[i].z};
      const size_t found = index.knnSearch(q, k, indices.data(), d2.data());
      result.kth_distance[i] = found > 0 ? std::sqrt(d2[found - 1]) : 0.0f;
    }
  });
  result.knn_ms = ms_since(start);
  return result;
}

const char* nanoflann_version() {
  static const std::string version = "nanoflann-" + std::to_string(NANOFLANN_VERSION >> 8) + "." +
                                     std::to_string((NANOFLANN_VERSION >> 4) & 0xf) + "." +
                                     std::to_string(NANOFLANN_VERSION & 0xf);
  return version.c_str();
}

}  // namespace meniscus::bench
