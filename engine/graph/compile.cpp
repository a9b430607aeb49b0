// FrameGraph::compile(): the four bake phases, in order.
//   1. dependencies   RAW, WAW and WAR edges between passes, from the versioned accesses
//   2. culling        keep what reaches a side effect or an imported resource
//   3. ordering       topological, stable in declaration order; a cycle is an error
//   4. barriers       per resource, from each access to the next (and to the final state)
//   5. memory         transient resources with disjoint lifetimes share memory
#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>

#include "engine/core/image.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::graph {
namespace {

struct Edges {
  std::vector<std::set<uint32_t>> after;      // after[p]: passes p must run after (all kinds)
  std::vector<std::set<uint32_t>> needs;      // needs[p]: passes whose output p consumes
};

bool is_depth(const ResourceNode& node) {
  return node.kind == ResourceKind::Image && is_depth_format(node.image.format);
}

// The merged access of one pass to one resource (a pass may read and write it).
struct PassUse {
  VkPipelineStageFlags2 stages = 0;
  VkAccessFlags2 access = 0;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  bool writes = false;
};

// What the next access of a resource must wait for.
struct ResourceState {
  VkPipelineStageFlags2 write_stages = 0;
  VkAccessFlags2 write_access = 0;
  VkPipelineStageFlags2 read_stages = 0;   // readers since the last write
  VkPipelineStageFlags2 synced_stages = 0; // stages already made to wait for the last write
  VkAccessFlags2 synced_access = 0;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  bool touched = false;
};

ResourceState initial_state(const ResourceNode& node) {
  ResourceState state;
  if (!node.imported) return state;
  const Access initial = node.kind == ResourceKind::Image ? node.external_image.initial : node.external_buffer.initial;
  const AccessInfo info = access_info(initial, is_depth(node));
  if (info.writes) {
    state.write_stages = info.stages;
    state.write_access = info.access;
  } else {
    state.read_stages = info.stages;
  }
  state.layout = node.kind == ResourceKind::Image ? info.layout : VK_IMAGE_LAYOUT_UNDEFINED;
  return state;
}

// Barrier from `state` to `use`, or none when the access is already ordered and visible.
std::optional<Barrier> barrier_for(uint32_t resource, bool image, ResourceState& state, const PassUse& use) {
  const bool layout_change = image && state.layout != use.layout;
  Barrier b{resource, 0, 0, use.stages, use.access, state.layout, use.layout, image, false};
  bool needed = layout_change;
  if (use.writes || layout_change) {
    // Writes (and layout transitions, which write) wait for the last write and every read since.
    b.src_stages = state.write_stages | state.read_stages;
    b.src_access = state.write_access;
    needed |= b.src_stages != 0;
  } else if (state.write_stages != 0) {
    // Read after write: only if this reader's stages/accesses were not covered already.
    const bool covered = (use.stages & ~state.synced_stages) == 0 && (use.access & ~state.synced_access) == 0;
    if (!covered) {
      b.src_stages = state.write_stages;
      b.src_access = state.write_access;
      needed = true;
    }
  }
  // Update the state to "after this pass".
  if (use.writes) {
    state.write_stages = use.stages;
    state.write_access = use.access;
    state.read_stages = 0;
    state.synced_stages = 0;
    state.synced_access = 0;
  } else if (layout_change) {
    // The transition acts as the latest write; this pass's stages already wait for it.
    state.write_stages = use.stages;
    state.write_access = 0;
    state.read_stages = use.stages;
    state.synced_stages = use.stages;
    state.synced_access = use.access;
  } else {
    state.read_stages |= use.stages;
    state.synced_stages |= use.stages;
    state.synced_access |= use.access;
  }
  state.layout = use.layout;
  state.touched = true;
  if (!needed) return std::nullopt;
  return b;
}

}  // namespace

const CompiledGraph& FrameGraph::compile(const MemoryRequirementsFn& requirements) {
  const uint32_t pass_count = static_cast<uint32_t>(passes_.size());
  const uint32_t resource_count = static_cast<uint32_t>(resources_.size());
  compiled_ = CompiledGraph{};

  // ---- 1. dependencies -------------------------------------------------------------------
  // producer[r][v]: the pass that wrote version v of resource r (v >= 1).
  std::vector<std::vector<uint32_t>> producer(resource_count);
  std::vector<std::vector<std::vector<uint32_t>>> readers(resource_count);
  for (uint32_t r = 0; r < resource_count; ++r) {
    producer[r].assign(resources_[r].latest_version + 1, UINT32_MAX);
    readers[r].resize(resources_[r].latest_version + 1);
  }
  for (uint32_t p = 0; p < pass_count; ++p) {
    for (const AccessRecord& a : passes_[p].accesses) {
      if (a.write) producer[a.resource][a.version + 1] = p;
      else readers[a.resource][a.version].push_back(p);
    }
  }
  Edges edges{std::vector<std::set<uint32_t>>(pass_count), std::vector<std::set<uint32_t>>(pass_count)};
  for (uint32_t p = 0; p < pass_count; ++p) {
    for (const AccessRecord& a : passes_[p].accesses) {
      const ResourceNode& node = resources_[a.resource];
      const uint32_t source = a.version > 0 ? producer[a.resource][a.version] : UINT32_MAX;
      if (!a.write && a.version == 0 && !node.imported)
        fail("pass '" + passes_[p].name + "' reads '" + node.name + "' which no pass writes");
      if (source != UINT32_MAX && source != p) {
        edges.after[p].insert(source);  // RAW, or WAW for a write of the next version
        edges.needs[p].insert(source);
      }
      if (a.write) {
        for (uint32_t reader : readers[a.resource][a.version])
          if (reader != p) edges.after[p].insert(reader);  // WAR
      }
    }
  }

  // ---- 2. culling ------------------------------------------------------------------------
  std::vector<bool> alive(pass_count, false);
  std::vector<uint32_t> stack;
  for (uint32_t p = 0; p < pass_count; ++p) {
    bool root = passes_[p].side_effect;
    for (const AccessRecord& a : passes_[p].accesses) root |= a.write && resources_[a.resource].imported;
    if (root) {
      alive[p] = true;
      stack.push_back(p);
    }
  }
  while (!stack.empty()) {
    const uint32_t p = stack.back();
    stack.pop_back();
    for (uint32_t q : edges.needs[p])
      if (!alive[q]) {
        alive[q] = true;
        stack.push_back(q);
      }
  }
  for (uint32_t p = 0; p < pass_count; ++p)
    if (!alive[p]) compiled_.culled.push_back(p);

  // ---- 3. ordering (Kahn, smallest declaration index first) ------------------------------
  std::vector<uint32_t> pending(pass_count, 0);
  std::vector<std::vector<uint32_t>> before(pass_count);  // before[q]: passes waiting on q
  for (uint32_t p = 0; p < pass_count; ++p) {
    if (!alive[p]) continue;
    for (uint32_t q : edges.after[p])
      if (alive[q]) {
        ++pending[p];
        before[q].push_back(p);
      }
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
  for (uint32_t p = 0; p < pass_count; ++p)
    if (alive[p] && pending[p] == 0) ready.push(p);
  std::vector<uint32_t> order;
  while (!ready.empty()) {
    const uint32_t p = ready.top();
    ready.pop();
    order.push_back(p);
    for (uint32_t next : before[p])
      if (--pending[next] == 0) ready.push(next);
  }
  const size_t alive_count = std::count(alive.begin(), alive.end(), true);
  if (order.size() != alive_count) {
    // Walk back along unsatisfied edges from a stuck pass until a pass repeats: that's a cycle.
    uint32_t p = 0;
    while (!alive[p] || pending[p] == 0) ++p;
    std::vector<uint32_t> path;
    std::vector<int> seen(pass_count, -1);
    while (seen[p] < 0) {
      seen[p] = static_cast<int>(path.size());
      path.push_back(p);
      for (uint32_t q : edges.after[p])
        if (alive[q] && pending[q] > 0) {
          p = q;
          break;
        }
    }
    std::string cycle;
    for (size_t i = seen[p]; i < path.size(); ++i) cycle += "'" + passes_[path[i]].name + "' after ";
    fail("dependency cycle: " + cycle + "'" + passes_[p].name + "' (a pass reads a version that a later write replaces)");
  }

  // ---- 4. barriers -----------------------------------------------------------------------
  std::vector<uint32_t> position(pass_count, UINT32_MAX);
  for (uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  std::vector<ResourceState> states(resource_count);
  for (uint32_t r = 0; r < resource_count; ++r) states[r] = initial_state(resources_[r]);

  // Lifetimes of transients, needed for the aliasing barriers below.
  std::vector<uint32_t> first_use(resource_count, UINT32_MAX), last_use(resource_count, 0);
  for (uint32_t i = 0; i < order.size(); ++i)
    for (const AccessRecord& a : passes_[order[i]].accesses) {
      first_use[a.resource] = std::min(first_use[a.resource], i);
      last_use[a.resource] = std::max(last_use[a.resource], i);
    }

  // ---- 5. memory (before barriers are emitted, so first uses can wait on earlier occupants)
  std::vector<uint32_t> transients;
  for (uint32_t r = 0; r < resource_count; ++r)
    if (!resources_[r].imported && first_use[r] != UINT32_MAX) transients.push_back(r);
  std::map<uint32_t, MemoryRequirement> requirement;
  for (uint32_t r : transients) {
    requirement[r] = requirements(r, resources_[r], usage_of(r));
    compiled_.memory_without_aliasing += requirement[r].size;
  }
  std::stable_sort(transients.begin(), transients.end(),
                   [&](uint32_t a, uint32_t b) { return requirement[a].size > requirement[b].size; });
  auto overlaps_in_time = [&](uint32_t a, uint32_t b) {
    return first_use[a] <= last_use[b] && first_use[b] <= last_use[a];
  };
  std::vector<Placement> placed;
  for (uint32_t r : transients) {
    const MemoryRequirement& req = requirement[r];
    bool done = false;
    for (uint32_t block = 0; block < compiled_.blocks.size() && !done; ++block) {
      MemoryBlock& mb = compiled_.blocks[block];
      if ((mb.memory_type_bits & req.memory_type_bits) == 0) continue;
      // Candidate offsets: the block start and the end of every occupant.
      std::vector<VkDeviceSize> candidates{0};
      for (const Placement& p : placed)
        if (p.block == block) candidates.push_back(p.offset + p.requirement.size);
      std::sort(candidates.begin(), candidates.end());
      for (VkDeviceSize offset : candidates) {
        const VkDeviceSize alignment = std::max<VkDeviceSize>(req.alignment, 1);
        offset = (offset + alignment - 1) / alignment * alignment;
        if (offset + req.size > mb.size) continue;
        const bool collides = std::any_of(placed.begin(), placed.end(), [&](const Placement& p) {
          return p.block == block && overlaps_in_time(p.resource, r) && offset < p.offset + p.requirement.size &&
                 p.offset < offset + req.size;
        });
        if (collides) continue;
        mb.memory_type_bits &= req.memory_type_bits;
        placed.push_back({r, block, offset, first_use[r], last_use[r], req});
        done = true;
        break;
      }
    }
    if (!done) {
      compiled_.blocks.push_back({req.size, req.memory_type_bits});
      placed.push_back({r, static_cast<uint32_t>(compiled_.blocks.size() - 1), 0, first_use[r], last_use[r], req});
    }
  }
  for (const MemoryBlock& b : compiled_.blocks) compiled_.memory_with_aliasing += b.size;
  std::sort(placed.begin(), placed.end(), [](const Placement& a, const Placement& b) { return a.resource < b.resource; });
  compiled_.placements = placed;

  // A transient's first use waits for whatever used the same bytes before it this frame.
  std::vector<PassUse> alias_wait(resource_count);
  for (const Placement& p : placed)
    for (const Placement& q : placed)
      if (q.block == p.block && q.last_use < p.first_use && q.offset < p.offset + p.requirement.size &&
          p.offset < q.offset + q.requirement.size) {
        for (uint32_t i = q.first_use; i <= q.last_use; ++i)
          for (const AccessRecord& a : passes_[order[i]].accesses)
            if (a.resource == q.resource) {
              const AccessInfo info = access_info(a.access, is_depth(resources_[q.resource]));
              alias_wait[p.resource].stages |= info.stages;
              if (info.writes) alias_wait[p.resource].access |= info.access;
            }
      }

  for (uint32_t i = 0; i < order.size(); ++i) {
    const PassNode& pass = passes_[order[i]];
    std::map<uint32_t, PassUse> uses;
    for (const AccessRecord& a : pass.accesses) {
      const ResourceNode& node = resources_[a.resource];
      const AccessInfo info = access_info(a.access, is_depth(node));
      PassUse& use = uses[a.resource];
      const VkImageLayout layout = node.kind == ResourceKind::Image ? info.layout : VK_IMAGE_LAYOUT_UNDEFINED;
      if (use.stages != 0 && use.layout != layout)
        fail("pass '" + pass.name + "' uses '" + node.name + "' in two layouts at once");
      use.stages |= info.stages;
      use.access |= info.access;
      use.layout = layout;
      use.writes |= a.write;
    }
    CompiledPass compiled_pass{order[i], {}};
    for (const auto& [r, use] : uses) {
      ResourceState& state = states[r];
      const bool first_aliased = !state.touched && alias_wait[r].stages != 0;
      if (first_aliased) {
        state.write_stages = alias_wait[r].stages;
        state.write_access = alias_wait[r].access;
      }
      if (auto b = barrier_for(r, resources_[r].kind == ResourceKind::Image, state, use)) {
        b->aliasing = first_aliased;
        compiled_pass.barriers.push_back(*b);
      }
    }
    compiled_.order.push_back(std::move(compiled_pass));
  }

  // Imported resources leave in their final state.
  for (uint32_t r = 0; r < resource_count; ++r) {
    const ResourceNode& node = resources_[r];
    if (!node.imported) continue;
    const bool image = node.kind == ResourceKind::Image;
    const Access final_access = image ? node.external_image.final : node.external_buffer.final;
    const AccessInfo info = access_info(final_access, is_depth(node));
    ResourceState& state = states[r];
    const VkImageLayout final_layout = image ? info.layout : VK_IMAGE_LAYOUT_UNDEFINED;
    // Leaving as None means "whatever layout it is in": nothing to do.
    if (final_access == Access::None) continue;
    const bool layout_change = image && state.layout != final_layout;
    if (!state.touched && !layout_change) continue;
    const PassUse use{info.stages, info.access, final_layout, info.writes};
    if (auto b = barrier_for(r, image, state, use)) compiled_.final_barriers.push_back(*b);
  }
  is_compiled_ = true;
  return compiled_;
}

}  // namespace meniscus::graph
