#include "engine/graph/alias_memory.h"

#include <algorithm>

namespace meniscus::graph {
namespace {

bool overlaps_in_time(const Placement& p, uint32_t first, uint32_t last) {
  return p.first_use <= last && first <= p.last_use;
}

bool overlaps_in_bytes(const Placement& p, VkDeviceSize offset, VkDeviceSize size) {
  return offset < p.offset + p.requirement.size && p.offset < offset + size;
}

VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
  alignment = std::max<VkDeviceSize>(alignment, 1);
  return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

MemoryPlan place_transients(std::vector<TransientUse> uses) {
  MemoryPlan plan;
  for (const TransientUse& u : uses) plan.without_aliasing += u.requirement.size;
  // Largest first: the big targets define the blocks and the small ones fill the gaps. Stable,
  // so equal sizes keep resource order and the plan is the same every frame.
  std::stable_sort(uses.begin(), uses.end(),
                   [](const TransientUse& a, const TransientUse& b) { return a.requirement.size > b.requirement.size; });

  for (const TransientUse& u : uses) {
    const MemoryRequirement& req = u.requirement;
    bool placed = false;
    for (uint32_t block = 0; block < plan.blocks.size() && !placed; ++block) {
      MemoryBlock& mb = plan.blocks[block];
      if (mb.images != u.image || (mb.memory_type_bits & req.memory_type_bits) == 0) continue;
      // Candidate offsets: the block start and the end of every occupant; the lowest that
      // fits without touching a live neighbour wins.
      std::vector<VkDeviceSize> candidates{0};
      for (const Placement& p : plan.placements)
        if (p.block == block) candidates.push_back(p.offset + p.requirement.size);
      std::sort(candidates.begin(), candidates.end());
      for (VkDeviceSize offset : candidates) {
        offset = align_up(offset, req.alignment);
        if (offset + req.size > mb.size) continue;
        const bool collides = std::any_of(plan.placements.begin(), plan.placements.end(), [&](const Placement& p) {
          return p.block == block && overlaps_in_time(p, u.first_use, u.last_use) && overlaps_in_bytes(p, offset, req.size);
        });
        if (collides) continue;
        mb.memory_type_bits &= req.memory_type_bits;
        plan.placements.push_back({u.resource, block, offset, u.first_use, u.last_use, req, u.usage});
        placed = true;
        break;
      }
    }
    if (!placed) {
      plan.blocks.push_back({req.size, req.memory_type_bits, u.image});
      plan.placements.push_back(
          {u.resource, static_cast<uint32_t>(plan.blocks.size() - 1), 0, u.first_use, u.last_use, req, u.usage});
    }
  }
  for (const MemoryBlock& b : plan.blocks) plan.with_aliasing += b.size;
  std::sort(plan.placements.begin(), plan.placements.end(),
            [](const Placement& a, const Placement& b) { return a.resource < b.resource; });
  return plan;
}

std::vector<const Placement*> previous_occupants(const MemoryPlan& plan, const Placement& p) {
  std::vector<const Placement*> out;
  for (const Placement& q : plan.placements)
    if (q.block == p.block && q.last_use < p.first_use && overlaps_in_bytes(q, p.offset, p.requirement.size))
      out.push_back(&q);
  return out;
}

}  // namespace meniscus::graph
