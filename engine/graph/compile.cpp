// FrameGraph::compile(): the bake phases, in order.
//   1. dependencies   RAW, WAW and WAR edges between passes, from the versioned accesses
//   2. culling        keep what reaches a side effect or an imported resource
//   3. ordering       topological, stable in declaration order; a cycle is an error
//   4. memory         transient resources with disjoint lifetimes share memory
//   5. barriers       per resource, from each access to the next (and to the final state)
// Memory comes before barriers because the first use of aliased memory must wait for the
// previous occupant.
#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>

#include "engine/core/image.h"
#include "engine/graph/alias_memory.h"
#include "engine/graph/frame_graph.h"

namespace meniscus::graph {
namespace {

bool is_depth(const ResourceNode& node) {
  return node.kind == ResourceKind::Image && is_depth_format(node.image.format);
}

struct Edges {
  // after[p][q] = r: p must run after q, because of resource r (RAW, WAW or WAR).
  std::vector<std::map<uint32_t, uint32_t>> after;
  // needs[p]: passes whose output p consumes (RAW and WAW); culling follows only these.
  std::vector<std::set<uint32_t>> needs;
};

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
  VkPipelineStageFlags2 read_stages = 0;    // readers since the last write
  VkPipelineStageFlags2 synced_stages = 0;  // stages already made to wait for the last write
  VkAccessFlags2 synced_access = 0;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  bool touched = false;
  // An imported image with undefined content (a swapchain image) is only usable once a
  // semaphore wait says so. An empty source scope would let the layout transition run
  // before that wait; waiting on the first user's own stages chains it behind a wait at
  // those stages (or ALL_COMMANDS).
  bool transition_at_first_use = false;
};

ResourceState initial_state(const ResourceNode& node) {
  ResourceState state;
  if (!node.imported) return state;
  const bool image = node.kind == ResourceKind::Image;
  const Access initial = image ? node.external_image.initial : node.external_buffer.initial;
  const AccessInfo info = access_info(initial, is_depth(node));
  if (info.writes) {
    state.write_stages = info.stages;
    state.write_access = info.access;
  } else {
    state.read_stages = info.stages;
  }
  state.layout = image ? info.layout : VK_IMAGE_LAYOUT_UNDEFINED;
  state.transition_at_first_use = image && initial == Access::None;
  return state;
}

// Barrier from `state` to `use`, or none when the access is already ordered and visible.
std::optional<Barrier> barrier_for(uint32_t resource, bool image, ResourceState& state, const PassUse& use) {
  const bool layout_change = image && state.layout != use.layout;
  Barrier b{resource, 0, 0, use.stages, use.access, state.layout, use.layout, image, false};
  bool needed = layout_change;
  if (use.writes || layout_change) {
    // Writes (and layout transitions, which write) wait for the last write and every read
    // since: WAW is a memory dependency, WAR only an execution dependency.
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
  if (layout_change && state.transition_at_first_use) b.src_stages |= use.stages;
  state.transition_at_first_use = false;

  // Update the state to "after this pass".
  if (use.writes) {
    state.write_stages = use.stages;
    state.write_access = use.access;
    state.read_stages = 0;
    state.synced_stages = 0;
    state.synced_access = 0;
  } else if (layout_change) {
    // The transition acts as the latest write; later readers chain through this pass's
    // stages, which already see the data.
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
  is_compiled_ = false;
  alive_.clear();

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
  Edges edges{std::vector<std::map<uint32_t, uint32_t>>(pass_count), std::vector<std::set<uint32_t>>(pass_count)};
  for (uint32_t p = 0; p < pass_count; ++p) {
    for (const AccessRecord& a : passes_[p].accesses) {
      const ResourceNode& node = resources_[a.resource];
      const uint32_t source = a.version > 0 ? producer[a.resource][a.version] : UINT32_MAX;
      if (!a.write && a.version == 0 && !node.imported)
        fail("pass '" + passes_[p].name + "' reads '" + node.name + "' which no pass writes");
      if (source != UINT32_MAX && source != p) {
        edges.after[p].emplace(source, a.resource);  // RAW, or WAW for a write of the next version
        edges.needs[p].insert(source);
      }
      if (a.write) {
        for (uint32_t reader : readers[a.resource][a.version])
          if (reader != p) edges.after[p].emplace(reader, a.resource);  // WAR
      }
    }
  }

  // ---- 2. culling (reference counting seen from the roots) -------------------------------
  alive_.assign(pass_count, false);
  std::vector<uint32_t> stack;
  for (uint32_t p = 0; p < pass_count; ++p) {
    bool root = passes_[p].side_effect;
    for (const AccessRecord& a : passes_[p].accesses) root |= a.write && resources_[a.resource].imported;
    if (root) {
      alive_[p] = true;
      stack.push_back(p);
    }
  }
  while (!stack.empty()) {
    const uint32_t p = stack.back();
    stack.pop_back();
    for (uint32_t q : edges.needs[p])
      if (!alive_[q]) {
        alive_[q] = true;
        stack.push_back(q);
      }
  }
  for (uint32_t p = 0; p < pass_count; ++p)
    if (!alive_[p]) compiled_.culled.push_back(p);

  // ---- 3. ordering (Kahn, smallest declaration index first) ------------------------------
  std::vector<uint32_t> pending(pass_count, 0);
  std::vector<std::vector<uint32_t>> before(pass_count);  // before[q]: passes waiting on q
  for (uint32_t p = 0; p < pass_count; ++p) {
    if (!alive_[p]) continue;
    for (const auto& [q, resource] : edges.after[p])
      if (alive_[q]) {
        ++pending[p];
        before[q].push_back(p);
      }
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
  for (uint32_t p = 0; p < pass_count; ++p)
    if (alive_[p] && pending[p] == 0) ready.push(p);
  std::vector<uint32_t> order;
  while (!ready.empty()) {
    const uint32_t p = ready.top();
    ready.pop();
    order.push_back(p);
    for (uint32_t next : before[p])
      if (--pending[next] == 0) ready.push(next);
  }
  const size_t alive_count = std::count(alive_.begin(), alive_.end(), true);
  if (order.size() != alive_count) {
    // Every stuck pass waits on another stuck pass; walking those waits must repeat a pass,
    // and the walk from its first visit is a cycle.
    uint32_t p = 0;
    while (!alive_[p] || pending[p] == 0) ++p;
    std::vector<uint32_t> path, via;
    std::vector<int> seen(pass_count, -1);
    while (seen[p] < 0) {
      seen[p] = static_cast<int>(path.size());
      path.push_back(p);
      for (const auto& [q, resource] : edges.after[p])
        if (alive_[q] && pending[q] > 0) {
          via.push_back(resource);
          p = q;
          break;
        }
    }
    std::string cycle;
    for (size_t i = seen[p]; i < path.size(); ++i) {
      const uint32_t next = i + 1 < path.size() ? path[i + 1] : p;
      cycle += (cycle.empty() ? "" : ", ") + std::string("'") + passes_[path[i]].name + "' waits for '" +
               passes_[next].name + "' (on '" + resources_[via[i]].name + "')";
    }
    fail("dependency cycle: " + cycle + "; a pass reads a version that a later write replaces (stale handle)");
  }

  // ---- 4. memory ---------------------------------------------------------------------------
  std::vector<uint32_t> first_use(resource_count, UINT32_MAX), last_use(resource_count, 0);
  for (uint32_t i = 0; i < order.size(); ++i)
    for (const AccessRecord& a : passes_[order[i]].accesses) {
      first_use[a.resource] = std::min(first_use[a.resource], i);
      last_use[a.resource] = std::max(last_use[a.resource], i);
    }
  std::vector<TransientUse> transients;
  for (uint32_t r = 0; r < resource_count; ++r) {
    if (resources_[r].imported || first_use[r] == UINT32_MAX) continue;
    const uint32_t usage = usage_of(r);
    transients.push_back({r, requirements(r, resources_[r], usage), first_use[r], last_use[r],
                          resources_[r].kind == ResourceKind::Image, usage});
  }
  MemoryPlan plan = place_transients(std::move(transients));

  // A transient's first use waits for whatever used the same bytes before it this frame.
  std::vector<PassUse> alias_wait(resource_count);
  for (const Placement& p : plan.placements)
    for (const Placement* q : previous_occupants(plan, p))
      for (uint32_t i = q->first_use; i <= q->last_use; ++i)
        for (const AccessRecord& a : passes_[order[i]].accesses)
          if (a.resource == q->resource) {
            const AccessInfo info = access_info(a.access, is_depth(resources_[q->resource]));
            alias_wait[p.resource].stages |= info.stages;
            if (info.writes) alias_wait[p.resource].access |= info.access;
          }

  // ---- 5. barriers -------------------------------------------------------------------------
  std::vector<ResourceState> states(resource_count);
  for (uint32_t r = 0; r < resource_count; ++r) states[r] = initial_state(resources_[r]);
  auto aspect = [&](uint32_t r) -> VkImageAspectFlags {
    return resources_[r].kind == ResourceKind::Image ? aspect_of(resources_[r].image.format) : 0;
  };
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
        b->aspect = aspect(r);
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
    // Leaving as None means "whatever state it is in": nothing to do.
    if (final_access == Access::None) continue;
    const AccessInfo info = access_info(final_access, is_depth(node));
    ResourceState& state = states[r];
    const VkImageLayout final_layout = image ? info.layout : VK_IMAGE_LAYOUT_UNDEFINED;
    const bool layout_change = image && state.layout != final_layout;
    if (!state.touched && !layout_change) continue;
    const PassUse use{info.stages, info.access, final_layout, info.writes};
    if (auto b = barrier_for(r, image, state, use)) {
      b->aspect = aspect(r);
      compiled_.final_barriers.push_back(*b);
    }
  }

  compiled_.placements = std::move(plan.placements);
  compiled_.blocks = std::move(plan.blocks);
  compiled_.memory_without_aliasing = plan.without_aliasing;
  compiled_.memory_with_aliasing = plan.with_aliasing;
  is_compiled_ = true;
  return compiled_;
}

}  // namespace meniscus::graph
