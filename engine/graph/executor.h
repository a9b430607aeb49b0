#pragma once
// Turns a compiled frame graph into commands: realises transient resources (pooled across
// frames, one pool per frame in flight so overlapping frames never share a transient), emits
// each pass's barriers, and calls the pass recorders between debug labels and timing hooks.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/graph/frame_graph.h"
#include "engine/graph/pass_hooks.h"

namespace meniscus::graph {

class GraphExecutor {
 public:
  explicit GraphExecutor(const Context& context, uint32_t frames_in_flight = 1);
  ~GraphExecutor();
  GraphExecutor(const GraphExecutor&) = delete;
  GraphExecutor& operator=(const GraphExecutor&) = delete;

  // Compiles `graph` and records it into `cmd`. `frame_slot` < frames_in_flight selects the
  // transient pool; the caller guarantees that slot's previous frame has completed.
  void execute(FrameGraph& graph, VkCommandBuffer cmd, uint32_t frame_slot, PassHooks* hooks);
  // One frame in flight (captures, tools, tests): the only pool. Throws if there are more.
  void execute(FrameGraph& graph, VkCommandBuffer cmd, PassHooks* hooks);

 private:
  struct Transient;
  struct Pool;
  MemoryRequirement query(Pool& pool, const std::string& key, const ResourceNode& node, uint32_t usage);
  void realise(Pool& pool, const FrameGraph& graph, const CompiledGraph& compiled);
  void emit(VkCommandBuffer cmd, const std::vector<Barrier>& barriers,
            const std::vector<PhysicalResource>& physical, const FrameGraph& graph) const;

  const Context& context_;
  std::vector<std::unique_ptr<Pool>> pools_;
};

}  // namespace meniscus::graph
