#include "engine/graph/executor.h"

#include <sstream>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/image.h"

namespace meniscus::graph {
namespace {

std::string key_of(const ResourceNode& node, uint32_t usage) {
  std::ostringstream key;
  key << node.name << '|' << usage << '|';
  if (node.kind == ResourceKind::Image)
    key << node.image.format << 'x' << node.image.extent.width << 'x' << node.image.extent.height << 'x'
        << node.image.layers << 'x' << node.image.mip_levels << 'x' << node.image.cube;
  else
    key << node.buffer.size;
  return key.str();
}

}  // namespace

// A VkImage or VkBuffer kept from frame to frame while the graph keeps asking for it.
struct GraphExecutor::Transient {
  VkImage image = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkImageView storage_view = VK_NULL_HANDLE;
  MemoryRequirement requirement{};
  bool bound = false;
};

struct GraphExecutor::Pool {
  std::map<std::string, Transient> transients;
  std::vector<VkDeviceMemory> memory;
  std::string layout_signature;  // placements the memory was bound for
  std::vector<std::string> keys; // key of each resource index this frame
};

GraphExecutor::GraphExecutor(const Context& context, uint32_t frames_in_flight) : context_(context) {
  if (frames_in_flight == 0) throw GraphError("frame graph: an executor needs at least one frame in flight");
  for (uint32_t i = 0; i < frames_in_flight; ++i) pools_.push_back(std::make_unique<Pool>());
}

GraphExecutor::~GraphExecutor() {
  VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  for (auto& pool : pools_) {
    for (auto& [key, t] : pool->transients) {
      if (t.storage_view && t.storage_view != t.view) vkDestroyImageView(device, t.storage_view, nullptr);
      if (t.view) vkDestroyImageView(device, t.view, nullptr);
      if (t.image) vkDestroyImage(device, t.image, nullptr);
      if (t.buffer) vkDestroyBuffer(device, t.buffer, nullptr);
    }
    for (VkDeviceMemory m : pool->memory) vkFreeMemory(device, m, nullptr);
  }
}

MemoryRequirement GraphExecutor::query(Pool& pool, const std::string& key, const ResourceNode& node, uint32_t usage) {
  Transient& t = pool.transients[key];
  if (t.image || t.buffer) return t.requirement;
  VkMemoryRequirements req{};
  if (node.kind == ResourceKind::Image) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.flags = node.image.cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = node.image.format;
    info.extent = {node.image.extent.width, node.image.extent.height, 1};
    info.mipLevels = node.image.mip_levels;
    info.arrayLayers = node.image.layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(context_.device(), &info, nullptr, &t.image));
    context_.set_name(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(t.image), node.name.c_str());
    vkGetImageMemoryRequirements(context_.device(), t.image, &req);
  } else {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = node.buffer.size;
    info.usage = usage;
    VK_CHECK(vkCreateBuffer(context_.device(), &info, nullptr, &t.buffer));
    context_.set_name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(t.buffer), node.name.c_str());
    vkGetBufferMemoryRequirements(context_.device(), t.buffer, &req);
  }
  t.requirement = {req.size, req.alignment, req.memoryTypeBits};
  return t.requirement;
}

void GraphExecutor::realise(Pool& pool, const FrameGraph& graph, const CompiledGraph& compiled) {
  std::ostringstream signature;
  for (const MemoryBlock& b : compiled.blocks) signature << "B" << b.size << ":" << b.memory_type_bits << ";";
  for (const Placement& p : compiled.placements)
    signature << pool.keys[p.resource] << "@" << p.block << "+" << p.offset << ";";
  if (signature.str() == pool.layout_signature) return;

  // The placement changed (first frame, or a different graph): a VkImage cannot be re-bound,
  // so every transient of this pool is recreated on fresh memory. The caller guarantees the
  // pool's previous frame has completed.
  VkDevice device = context_.device();
  for (auto it = pool.transients.begin(); it != pool.transients.end();) {
    Transient& t = it->second;
    if (!t.bound) {  // only queried this frame: keep
      ++it;
      continue;
    }
    if (t.storage_view && t.storage_view != t.view) vkDestroyImageView(device, t.storage_view, nullptr);
    if (t.view) vkDestroyImageView(device, t.view, nullptr);
    if (t.image) vkDestroyImage(device, t.image, nullptr);
    if (t.buffer) vkDestroyBuffer(device, t.buffer, nullptr);
    it = pool.transients.erase(it);  // resources of older graphs must not pile up
  }
  for (VkDeviceMemory m : pool.memory) vkFreeMemory(device, m, nullptr);
  pool.memory.clear();
  for (const Placement& p : compiled.placements) {
    Transient& t = pool.transients[pool.keys[p.resource]];
    if (!t.image && !t.buffer) query(pool, pool.keys[p.resource], graph.resources()[p.resource], p.usage);
  }

  for (const MemoryBlock& block : compiled.blocks) {
    const std::string name = "graph.block" + std::to_string(pool.memory.size()) + (block.images ? " (images)" : " (buffers)");
    uint32_t type = context_.find_memory_type(block.memory_type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX) type = context_.find_memory_type(block.memory_type_bits, 0);
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    info.allocationSize = block.size;
    info.memoryTypeIndex = type;
    VK_CHECK(vkAllocateMemory(device, &info, nullptr, &pool.memory.emplace_back()));
    context_.set_name(VK_OBJECT_TYPE_DEVICE_MEMORY, reinterpret_cast<uint64_t>(pool.memory.back()), name.c_str());
  }
  for (const Placement& p : compiled.placements) {
    const ResourceNode& node = graph.resources()[p.resource];
    Transient& t = pool.transients[pool.keys[p.resource]];
    if (t.image) {
      VK_CHECK(vkBindImageMemory(device, t.image, pool.memory[p.block], p.offset));
      // A view needs a usage that reads or renders through one; a copy-only image has none.
      constexpr VkImageUsageFlags kViewUsage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                               VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
      if ((p.usage & kViewUsage) == 0) {
        t.bound = true;
        continue;
      }
      VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      view.image = t.image;
      view.viewType = node.image.cube ? VK_IMAGE_VIEW_TYPE_CUBE
                      : node.image.layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                                              : VK_IMAGE_VIEW_TYPE_2D;
      view.format = node.image.format;
      view.subresourceRange = {aspect_of(node.image.format), 0, node.image.mip_levels, 0, node.image.layers};
      VK_CHECK(vkCreateImageView(device, &view, nullptr, &t.view));
      context_.set_name(VK_OBJECT_TYPE_IMAGE_VIEW, reinterpret_cast<uint64_t>(t.view), node.name.c_str());
      t.storage_view = t.view;
      if (node.image.cube) {
        // Storage images cannot be cube views: compute writes the six faces as an array.
        view.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
        VK_CHECK(vkCreateImageView(device, &view, nullptr, &t.storage_view));
        const std::string array_name = node.name + " (array view)";
        context_.set_name(VK_OBJECT_TYPE_IMAGE_VIEW, reinterpret_cast<uint64_t>(t.storage_view), array_name.c_str());
      }
    } else {
      VK_CHECK(vkBindBufferMemory(device, t.buffer, pool.memory[p.block], p.offset));
    }
    t.bound = true;
  }
  pool.layout_signature = signature.str();
}

void GraphExecutor::emit(VkCommandBuffer cmd, const std::vector<Barrier>& barriers,
                         const std::vector<PhysicalResource>& physical, const FrameGraph& graph) const {
  if (barriers.empty()) return;
  std::vector<VkImageMemoryBarrier2> images;
  std::vector<VkBufferMemoryBarrier2> buffers;
  for (const Barrier& b : barriers) {
    const PhysicalResource& res = physical[b.resource];
    if (b.is_image) {
      VkImageMemoryBarrier2 ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
      ib.srcStageMask = b.src_stages;
      ib.srcAccessMask = b.src_access;
      ib.dstStageMask = b.dst_stages;
      ib.dstAccessMask = b.dst_access;
      ib.oldLayout = b.old_layout;
      ib.newLayout = b.new_layout;
      ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      ib.image = res.image;
      const ImageDesc& desc = graph.resources()[b.resource].image;
      ib.subresourceRange = {b.aspect, 0, desc.mip_levels, 0, desc.layers};
      images.push_back(ib);
    } else {
      VkBufferMemoryBarrier2 bb{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
      bb.srcStageMask = b.src_stages;
      bb.srcAccessMask = b.src_access;
      bb.dstStageMask = b.dst_stages;
      bb.dstAccessMask = b.dst_access;
      bb.srcQueueFamilyIndex = bb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      bb.buffer = res.buffer;
      bb.size = VK_WHOLE_SIZE;
      buffers.push_back(bb);
    }
  }
  VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  dependency.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
  dependency.pImageMemoryBarriers = images.data();
  dependency.bufferMemoryBarrierCount = static_cast<uint32_t>(buffers.size());
  dependency.pBufferMemoryBarriers = buffers.data();
  vkCmdPipelineBarrier2(cmd, &dependency);
}

void GraphExecutor::execute(FrameGraph& graph, VkCommandBuffer cmd, PassHooks* hooks) {
  if (pools_.size() != 1)
    throw GraphError("frame graph: execute() without a frame slot needs an executor with one frame in flight (this one has " +
                     std::to_string(pools_.size()) + ")");
  execute(graph, cmd, 0, hooks);
}

void GraphExecutor::execute(FrameGraph& graph, VkCommandBuffer cmd, uint32_t frame_slot, PassHooks* hooks) {
  Pool& pool = *pools_.at(frame_slot);
  const auto& resources = graph.resources();
  pool.keys.assign(resources.size(), {});
  const CompiledGraph& compiled = graph.compile([&](uint32_t r, const ResourceNode& node, uint32_t usage) {
    pool.keys[r] = key_of(node, usage);
    return query(pool, pool.keys[r], node, usage);
  });
  realise(pool, graph, compiled);

  std::vector<PhysicalResource> physical(resources.size());
  for (uint32_t r = 0; r < resources.size(); ++r) {
    const ResourceNode& node = resources[r];
    PhysicalResource& res = physical[r];
    res.desc = node.image;
    if (node.imported) {
      res.image = node.external_image.image;
      res.view = node.external_image.view;
      res.storage_view = node.external_image.storage_view ? node.external_image.storage_view : res.view;
      res.buffer = node.external_buffer.buffer;
      res.size = node.external_buffer.size;
    } else if (!pool.keys[r].empty()) {
      const Transient& t = pool.transients.at(pool.keys[r]);
      res.image = t.image;
      res.view = t.view;
      res.storage_view = t.storage_view;
      res.buffer = t.buffer;
      res.size = node.buffer.size;
    }
  }

  for (uint32_t slot = 0; slot < compiled.order.size(); ++slot) {
    const CompiledPass& cp = compiled.order[slot];
    const PassNode& pass = graph.passes()[cp.pass];
    context_.begin_label(cmd, pass.name.c_str());
    if (hooks) hooks->begin_pass(cmd, slot, pass.name);
    emit(cmd, cp.barriers, physical, graph);
    if (pass.execute) {
      PassContext ctx(cmd, context_, physical);
      pass.execute(ctx);
    }
    if (hooks) hooks->end_pass(cmd, slot, pass.name);
    context_.end_label(cmd);
  }
  emit(cmd, compiled.final_barriers, physical, graph);
}

}  // namespace meniscus::graph
