#pragma once
// Helpers for frame-graph tests: no device, fake memory requirements, passes that record
// nothing, and lookups into the compiled result.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/graph/frame_graph.h"

namespace meniscus::graph::testing {

inline ImageDesc color_desc(uint32_t size = 64) { return {VK_FORMAT_R8G8B8A8_UNORM, {size, size}}; }
inline ImageDesc depth_desc(uint32_t size = 64) { return {VK_FORMAT_D32_SFLOAT, {size, size}}; }

// 4 bytes per pixel, 256-byte alignment, every memory type allowed: enough to test placement.
inline MemoryRequirement fake_requirements(uint32_t, const ResourceNode& node, uint32_t) {
  if (node.kind == ResourceKind::Image)
    return {VkDeviceSize(node.image.extent.width) * node.image.extent.height * 4 * node.image.layers, 256, ~0u};
  return {node.buffer.size, 256, ~0u};
}

inline ExternalImage external_color(Access initial, Access final, uint32_t size = 64) {
  ExternalImage e;
  e.desc = color_desc(size);
  e.initial = initial;
  e.final = final;
  return e;
}

inline ExecuteFn no_commands() {
  return [](PassContext&) {};
}

inline std::vector<std::string> order_names(const FrameGraph& graph) {
  std::vector<std::string> names;
  for (const CompiledPass& p : graph.compiled().order) names.push_back(graph.passes()[p.pass].name);
  return names;
}

inline std::vector<std::string> culled_names(const FrameGraph& graph) {
  std::vector<std::string> names;
  for (uint32_t p : graph.compiled().culled) names.push_back(graph.passes()[p].name);
  return names;
}

inline uint32_t resource_index(const FrameGraph& graph, const std::string& name) {
  const auto& resources = graph.resources();
  for (uint32_t i = 0; i < resources.size(); ++i)
    if (resources[i].name == name) return i;
  FAIL("no resource " << name);
  return UINT32_MAX;
}

// The barrier for `resource` emitted before pass `pass_name`, or nullptr.
inline const Barrier* barrier_before(const FrameGraph& graph, const std::string& pass_name, const std::string& resource) {
  const uint32_t r = resource_index(graph, resource);
  for (const CompiledPass& p : graph.compiled().order) {
    if (graph.passes()[p.pass].name != pass_name) continue;
    for (const Barrier& b : p.barriers)
      if (b.resource == r) return &b;
  }
  return nullptr;
}

inline const Placement* placement_of(const FrameGraph& graph, const std::string& resource) {
  const uint32_t r = resource_index(graph, resource);
  for (const Placement& p : graph.compiled().placements)
    if (p.resource == r) return &p;
  return nullptr;
}

}  // namespace meniscus::graph::testing
