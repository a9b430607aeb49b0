#pragma once
// The frame graph: passes declare what they read and write in `setup`, the graph works out
// order, culling, barriers and memory, and `execute` recording happens afterwards.
//
//   graph.add_pass("scene.background", [&](PassBuilder& b) {
//     auto color = b.write(b.create_image("scene.color", desc), Access::ColorAttachmentWrite);
//     return [=](PassContext& ctx) { /* record with ctx.view(color) */ };
//   });
//
// It is rebuilt every frame; compile() is cheap (a few passes, a few resources).
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/graph/access.h"
#include "engine/graph/compiled_graph.h"
#include "engine/graph/pass_context.h"
#include "engine/graph/resources.h"

namespace meniscus::graph {

class GraphError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class ResourceKind { Image, Buffer };

struct ResourceNode {
  std::string name;
  ResourceKind kind;
  bool imported = false;
  ImageDesc image;
  BufferDesc buffer;
  ExternalImage external_image;
  ExternalBuffer external_buffer;
  uint32_t latest_version = 0;
  uint32_t creator = UINT32_MAX;  // pass that created a transient
};

struct AccessRecord {
  uint32_t resource;
  uint32_t version;  // the version read, or for a write the version it replaces
  Access access;
  bool write;
};

using ExecuteFn = std::function<void(PassContext&)>;

struct PassNode {
  std::string name;
  std::vector<AccessRecord> accesses;
  bool side_effect = false;
  ExecuteFn execute;
};

class FrameGraph;

// Handed to a pass's setup; every call is recorded against that pass.
class PassBuilder {
 public:
  ImageHandle create_image(std::string name, const ImageDesc& desc);
  BufferHandle create_buffer(std::string name, const BufferDesc& desc);
  void read(ImageHandle image, Access access);
  void read(BufferHandle buffer, Access access);
  [[nodiscard]] ImageHandle write(ImageHandle image, Access access);
  [[nodiscard]] BufferHandle write(BufferHandle buffer, Access access);
  // The pass has effects outside the graph (a readback, a debug dump): never culled.
  void side_effect();

 private:
  friend class FrameGraph;
  PassBuilder(FrameGraph& graph, uint32_t pass) : graph_(graph), pass_(pass) {}
  uint32_t record(uint32_t resource, uint32_t version, ResourceKind kind, Access access, bool write);

  FrameGraph& graph_;
  uint32_t pass_;
};

using SetupFn = std::function<ExecuteFn(PassBuilder&)>;
using MemoryRequirementsFn =
    std::function<MemoryRequirement(uint32_t resource, const ResourceNode& node, uint32_t usage)>;

class FrameGraph {
 public:
  // Runs `setup` now; the function it returns records the pass's commands at execute time.
  void add_pass(std::string name, const SetupFn& setup);
  ImageHandle import_image(std::string name, const ExternalImage& image);
  BufferHandle import_buffer(std::string name, const ExternalBuffer& buffer);

  // While a scope is open, every pass and resource name added gets "<scope>." in front, so the
  // same passes can be added once per instance (one fluid chain per particle stage: the
  // stage's name is the scope). Scopes nest; a NameScope closes its own.
  void push_scope(std::string scope);
  void pop_scope();

  // Culls, orders, derives barriers and places transient memory. Throws GraphError.
  const CompiledGraph& compile(const MemoryRequirementsFn& requirements);
  const CompiledGraph& compiled() const { return compiled_; }

  // Graphviz view of the compiled graph (passes, resource versions, barriers, culled passes).
  std::string to_dot() const;

  const std::vector<PassNode>& passes() const { return passes_; }
  const std::vector<ResourceNode>& resources() const { return resources_; }
  // Union of the usage every access of a resource needs (VkImageUsageFlags or
  // VkBufferUsageFlags); after compile() only the surviving passes count.
  uint32_t usage_of(uint32_t resource) const;

 private:
  friend class PassBuilder;
  uint32_t add_resource(ResourceNode node);
  std::string scoped(std::string name) const;
  [[noreturn]] void fail(const std::string& message) const;

  std::vector<PassNode> passes_;
  std::vector<ResourceNode> resources_;
  std::vector<std::string> scopes_;
  CompiledGraph compiled_;
  std::vector<bool> alive_;  // per pass, from the last compile(); empty before
  bool is_compiled_ = false;
};

// Opens a name scope of `graph` for its lifetime.
class NameScope {
 public:
  NameScope(FrameGraph& graph, std::string scope) : graph_(graph) { graph_.push_scope(std::move(scope)); }
  ~NameScope() { graph_.pop_scope(); }
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

 private:
  FrameGraph& graph_;
};

}  // namespace meniscus::graph
