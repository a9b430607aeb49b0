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

void validate_caustic_request(const FloorGrid& grid, uint32_t k) {
  if (grid.width == 0 || grid.height == 0 || !(grid.max.x > grid.min.x && grid.max.y > grid.min.y))
    throw InputError("caustic image: the floor grid is empty");
  if (k == 0) throw InputError("caustic image: k must be > 0");
}

float caustic_energy(uint32_t k, float power_per_photon) {
  return float(k) * power_per_photon / std::numbers::pi_v<float>;
}

CausticImage estimate_caustics(const CausticPhotons& photons, const FloorGrid& grid, uint32_t k) {
  validate_caustic_request(grid, k);
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
  const glm::vec2 step = cell_size(grid);
  for (uint32_t z = 0; z < grid.height; ++z)
    for (uint32_t x = 0; x < grid.width; ++x) pixels.push_back(cell_centre(grid, step, x, z));
  const kdtree::KnnResult nearest = kdtree::knn(tree, pixels, {.k = image.k});
  const float energy = caustic_energy(image.k, photons.power_per_photon);
  for (size_t p = 0; p < pixels.size(); ++p) image.irradiance[p] = irradiance_at(energy, nearest.radius(p));
  image.estimate_ms = ms_since(start);
  return image;
}

}  // namespace meniscus::sim::photon
