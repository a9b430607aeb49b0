#include "engine/graph/frame_graph.h"

#include <string>

namespace meniscus::graph {

void FrameGraph::fail(const std::string& message) const { throw GraphError("frame graph: " + message); }

uint32_t FrameGraph::add_resource(ResourceNode node) {
  for (const ResourceNode& existing : resources_)
    if (existing.name == node.name) fail("two resources are named '" + node.name + "'");
  resources_.push_back(std::move(node));
  return static_cast<uint32_t>(resources_.size() - 1);
}

void FrameGraph::push_scope(std::string scope) { scopes_.push_back(std::move(scope)); }

void FrameGraph::pop_scope() {
  if (scopes_.empty()) fail("pop_scope() without an open scope");
  scopes_.pop_back();
}

std::string FrameGraph::scoped(std::string name) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) name = *scope + "." + name;
  return name;
}

void FrameGraph::add_pass(std::string name, const SetupFn& setup) {
  name = scoped(std::move(name));
  for (const PassNode& existing : passes_)
    if (existing.name == name) fail("two passes are named '" + name + "'");
  passes_.push_back(PassNode{std::move(name), {}, false, {}});
  const uint32_t index = static_cast<uint32_t>(passes_.size() - 1);
  PassBuilder builder(*this, index);
  ExecuteFn execute = setup(builder);
  passes_[index].execute = std::move(execute);
  is_compiled_ = false;
  alive_.clear();
}

ImageHandle FrameGraph::import_image(std::string name, const ExternalImage& image) {
  ResourceNode node{scoped(std::move(name)), ResourceKind::Image};
  node.imported = true;
  node.image = image.desc;
  node.external_image = image;
  return {add_resource(std::move(node)), 0};
}

BufferHandle FrameGraph::import_buffer(std::string name, const ExternalBuffer& buffer) {
  ResourceNode node{scoped(std::move(name)), ResourceKind::Buffer};
  node.imported = true;
  node.buffer.size = buffer.size;
  node.external_buffer = buffer;
  return {add_resource(std::move(node)), 0};
}

uint32_t FrameGraph::usage_of(uint32_t resource) const {
  const ResourceNode& node = resources_[resource];
  uint32_t usage = 0;
  for (uint32_t p = 0; p < passes_.size(); ++p) {
    // A culled pass never runs; its accesses must not add usage (a storage bit on a format
    // without storage support would make the image impossible to create).
    if (p < alive_.size() && !alive_[p]) continue;
    for (const AccessRecord& a : passes_[p].accesses)
      if (a.resource == resource)
        usage |= node.kind == ResourceKind::Image ? image_usage_for(a.access) : buffer_usage_for(a.access);
  }
  return usage;
}

ImageHandle PassBuilder::create_image(std::string name, const ImageDesc& desc) {
  if (desc.format == VK_FORMAT_UNDEFINED || desc.extent.width == 0 || desc.extent.height == 0)
    graph_.fail("pass '" + graph_.passes_[pass_].name + "' creates image '" + name + "' with no format or size");
  if (desc.layers == 0 || desc.mip_levels == 0 || (desc.cube && desc.layers != 6))
    graph_.fail("pass '" + graph_.passes_[pass_].name + "' creates image '" + name + "' with " +
                std::to_string(desc.layers) + " layers and " + std::to_string(desc.mip_levels) +
                " mip levels (at least 1 each; a cube has 6 layers)");
  ResourceNode node{graph_.scoped(std::move(name)), ResourceKind::Image};
  node.image = desc;
  node.creator = pass_;
  return {graph_.add_resource(std::move(node)), 0};
}

BufferHandle PassBuilder::create_buffer(std::string name, const BufferDesc& desc) {
  if (desc.size == 0) graph_.fail("pass '" + graph_.passes_[pass_].name + "' creates buffer '" + name + "' of size 0");
  ResourceNode node{graph_.scoped(std::move(name)), ResourceKind::Buffer};
  node.buffer = desc;
  node.creator = pass_;
  return {graph_.add_resource(std::move(node)), 0};
}

uint32_t PassBuilder::record(uint32_t resource, uint32_t version, ResourceKind kind, Access access, bool write) {
  const std::string& pass = graph_.passes_[pass_].name;
  if (resource >= graph_.resources_.size())
    graph_.fail("pass '" + pass + "' uses a handle that names no resource (index " +
                (resource == UINT32_MAX ? std::string("unset") : std::to_string(resource)) +
                "); it was never created or imported in this graph");
  ResourceNode& node = graph_.resources_[resource];
  if (node.kind != kind) graph_.fail("pass '" + pass + "' uses '" + node.name + "' as the wrong kind of resource");
  if (version > node.latest_version)
    graph_.fail("pass '" + pass + "' uses version " + std::to_string(version) + " of '" + node.name +
                "' which does not exist");
  if (access == Access::None || access == Access::Present)
    graph_.fail("pass '" + pass + "' declares access " + access_name(access) + " on '" + node.name +
                "'; it is only valid as an imported resource's initial or final state");
  if (access_info(access, false).writes != write)
    graph_.fail("pass '" + pass + "' " + (write ? "writes" : "reads") + " '" + node.name + "' with " +
                access_name(access) + ", which " + (write ? "does not write" : "writes") + "; use " +
                (write ? "read()" : "write()"));
  auto& accesses = graph_.passes_[pass_].accesses;
  if (write) {
    // A stale write would fork the resource's history: two different "next versions".
    if (version != node.latest_version)
      graph_.fail("pass '" + pass + "' writes version " + std::to_string(version) + " of '" + node.name +
                  "' but version " + std::to_string(node.latest_version) + " already exists (stale handle)");
    for (const AccessRecord& a : accesses)
      if (a.resource == resource && a.write)
        graph_.fail("pass '" + pass + "' writes '" + node.name + "' twice");
    ++node.latest_version;
  }
  accesses.push_back({resource, version, access, write});
  return node.latest_version;
}

void PassBuilder::read(ImageHandle image, Access access) {
  record(image.index, image.version, ResourceKind::Image, access, false);
}
void PassBuilder::read(BufferHandle buffer, Access access) {
  record(buffer.index, buffer.version, ResourceKind::Buffer, access, false);
}
ImageHandle PassBuilder::write(ImageHandle image, Access access) {
  return {image.index, record(image.index, image.version, ResourceKind::Image, access, true)};
}
BufferHandle PassBuilder::write(BufferHandle buffer, Access access) {
  return {buffer.index, record(buffer.index, buffer.version, ResourceKind::Buffer, access, true)};
}
void PassBuilder::side_effect() { graph_.passes_[pass_].side_effect = true; }

}  // namespace meniscus::graph
