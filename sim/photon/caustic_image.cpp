// estimate_caustics (caustic_image.h).
#include "sim/photon/caustic_image.h"

#include <chrono>
#include <numbers>
#include <numeric>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "sim/kdtree/kdtree.h"
#include "sim/kdtree/knn.h"

namespace meniscus::sim::photon {
namespace {
using Clock = std::chrono::steady_clock;
using profile::ms_since;
}  // namespace

double CausticImage::mean() const {
  return irradiance.empty() ? 0.0 : std::accumulate(irradiance.begin(), irradiance.end(), 0.0) / double(irradiance.size());
}

CausticImage estimate_caustics(const CausticPhotons& photons, const FloorGrid& grid, uint32_t k) {
  if (grid.width == 0 || grid.height == 0 || !(grid.max.x > grid.min.x && grid.max.y > grid.min.y))
    throw InputError("caustic image: the floor grid is empty");
  if (k == 0) throw InputError("caustic image: k must be > 0");
  CausticImage image;
  image.grid = grid;
  image.irradiance.assign(size_t(grid.width) * grid.height, 0.0f);
  if (photons.positions.empty()) return image;

  Clock::time_point start = Clock::now();
  image.k = std::min<uint32_t>(k, uint32_t(photons.positions.size()));
  const kdtree::KdTree tree = kdtree::build_kdtree(photons.positions, {.k = image.k});
  image.tree_ms = ms_since(start);

  start = Clock::now();
  std::vector<glm::vec3> pixels;
  pixels.reserve(image.irradiance.size());
  const glm::vec2 step = (grid.max - grid.min) / glm::vec2(grid.width, grid.height);
  for (uint32_t z = 0; z < grid.height; ++z)
    for (uint32_t x = 0; x < grid.width; ++x)
      pixels.push_back({grid.min.x + (x + 0.5f) * step.x, grid.y, grid.min.y + (z + 0.5f) * step.y});
  const kdtree::KnnResult nearest = kdtree::knn(tree, pixels, {.k = image.k});
  const float energy = float(image.k) * photons.power_per_photon / std::numbers::pi_v<float>;
  for (size_t p = 0; p < pixels.size(); ++p) {
    const float r = nearest.radius(p);
    image.irradiance[p] = r > 0.0f ? energy / (r * r) : 0.0f;
  }
  image.estimate_ms = ms_since(start);
  return image;
}

}  // namespace meniscus::sim::photon
