#pragma once
// Transient memory placement: resources whose lifetimes (first..last use, in execution order)
// do not overlap may occupy the same bytes. Pure arithmetic, separate from the graph so the
// policy can be read (and changed) in one place.
#include <cstdint>
#include <vector>

#include "engine/graph/compiled_graph.h"

namespace meniscus::graph {

struct TransientUse {
  uint32_t resource;
  MemoryRequirement requirement;
  uint32_t first_use;
  uint32_t last_use;
  bool image;
  uint32_t usage;
};

struct MemoryPlan {
  std::vector<MemoryBlock> blocks;
  std::vector<Placement> placements;  // sorted by resource index
  VkDeviceSize without_aliasing = 0;  // sum of every transient's size
  VkDeviceSize with_aliasing = 0;     // sum of the blocks' sizes
};

// Greedy, largest first: each resource goes to the lowest offset of the first compatible block
// (memory types intersect, same kind) where no occupant that is alive at the same time
// overlaps it; otherwise it opens a block of its own size.
MemoryPlan place_transients(std::vector<TransientUse> uses);

// The placements that occupied some of `p`'s bytes earlier in the frame (ended before p began).
std::vector<const Placement*> previous_occupants(const MemoryPlan& plan, const Placement& p);

}  // namespace meniscus::graph
