#include "sim/sph/sph_removal.h"

#include <algorithm>

namespace meniscus::sim::sph {
namespace {

bool in_box(const SphBox& box, Vec3 p) {
  return p.x >= box.min[0] && p.x <= box.max[0] && p.y >= box.min[1] && p.y <= box.max[1] && p.z >= box.min[2] &&
         p.z <= box.max[2];
}

template <class T>
void compact(std::vector<T>& values, const std::vector<uint8_t>& gone) {
  size_t out = 0;
  for (size_t i = 0; i < values.size(); ++i)
    if (!gone[i]) values[out++] = values[i];
  values.resize(out);
}

}  // namespace

std::vector<uint32_t> densify_ids(const std::vector<uint32_t>& survivor_ids, std::vector<uint32_t> removed_ids) {
  const uint32_t alive = uint32_t(survivor_ids.size());
  std::vector<uint32_t> holes;  // ids below `alive` that nobody holds any more, ascending
  std::sort(removed_ids.begin(), removed_ids.end());
  for (uint32_t id : removed_ids)
    if (id < alive) holes.push_back(id);
  std::vector<uint32_t> movers;  // places of survivors whose id is now out of range, by id
  for (uint32_t k = 0; k < alive; ++k)
    if (survivor_ids[k] >= alive) movers.push_back(k);
  std::sort(movers.begin(), movers.end(), [&](uint32_t a, uint32_t b) { return survivor_ids[a] < survivor_ids[b]; });
  std::vector<uint32_t> ids = survivor_ids;
  for (size_t k = 0; k < movers.size(); ++k) ids[movers[k]] = holes[k];
  return ids;
}

uint64_t remove_in_sinks(const std::vector<SphSink>& sinks, std::vector<Vec3>& position,
                         std::initializer_list<std::vector<Vec3>*> vectors, std::initializer_list<std::vector<float>*> scalars,
                         std::vector<uint32_t>& id) {
  std::vector<uint8_t> gone(position.size(), 0);
  std::vector<uint32_t> removed;
  for (size_t i = 0; i < position.size(); ++i)
    for (const SphSink& sink : sinks)
      if (in_box(sink.box, position[i])) {
        gone[i] = 1;
        removed.push_back(id[i]);
        break;
      }
  if (removed.empty()) return 0;
  compact(position, gone);
  for (auto* v : vectors) compact(*v, gone);
  for (auto* v : scalars) compact(*v, gone);
  compact(id, gone);
  const uint64_t count = removed.size();
  id = densify_ids(id, std::move(removed));
  return count;
}

}  // namespace meniscus::sim::sph
