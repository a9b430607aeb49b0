#include "passes/surface/histopyramid_gpu.h"

#include <cstring>
#include <vector>

#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus::passes {
namespace {

// A device-local buffer filled through a staging copy (set-up time only).
Buffer upload(const Context& context, const void* data, VkDeviceSize bytes, const char* name) {
  Buffer staging(context, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
  std::memcpy(staging.mapped(), data, bytes);
  Buffer buffer(context, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                MemoryUse::DeviceLocal, name);
  submit_and_wait(context, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
  });
  return buffer;
}

// The dense volume's shaders and pyramid buffer (see pyramid_passes.h).
constexpr PyramidKind kVolumePyramid{"hp_classify", "hp_reduce", "hp_indirect", "hp_extract", "pyramid"};

}  // namespace

GpuHistoPyramid::GpuHistoPyramid(const Context& context, const sim::Volume& volume, glm::vec3 origin, glm::vec3 spacing,
                                 std::string name)
    : context_(context),
      name_(std::move(name)),
      layout_(sim::FlatLayout::for_cells(volume.dims - 1u)),
      dims_(volume.dims),
      origin_(origin),
      spacing_(spacing),
      range_(volume.range()),
      volume_(upload(context, volume.values.data(), volume.values.size() * sizeof(float), "surface.volume")),
      passes_(context, name_, kVolumePyramid, [&] {
        const auto tables = packed_mc_tables();
        return upload(context, tables.data(), tables.size() * sizeof(uint32_t), "surface.mc_tables");
      }()) {
  for (uint32_t s = layout_.side / 2; s >= 1; s /= 2) {
    pyramid_texels_ += uint64_t(s) * s;
    ++levels_;
  }
  const uint64_t bytes = pyramid_texels_ * 16;
  if (bytes > context.limits().maxStorageBufferRange || volume.values.size() * 4 > context.limits().maxStorageBufferRange)
    throw InputError(volume.source + ": too large for one storage buffer on " + context.info().name);
}

HistoPyramidParams GpuHistoPyramid::params(float iso, uint32_t level) const {
  return {glm::uvec4(dims_, layout_.tiles_per_row), glm::uvec4(layout_.side, levels_, level, 0),
          glm::vec4(iso, spacing_), glm::vec4(origin_, 0.0f)};
}

void GpuHistoPyramid::update_volume(const sim::Volume& volume) {
  if (volume.dims != dims_) throw DeviceError(name_ + ": update_volume needs the dimensions the pyramid was built for");
  const VkDeviceSize bytes = volume.values.size() * sizeof(float);
  Buffer staging(context_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
  std::memcpy(staging.mapped(), volume.values.data(), bytes);
  submit_and_wait(context_, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cmd, staging.handle(), volume_.handle(), 1, &region);
  });
  range_ = volume.range();
}

PyramidOutputs GpuHistoPyramid::add(graph::FrameGraph& graph, float iso) {
  // Uploaded once and never written again: no pending access when a frame starts.
  const graph::BufferHandle volume =
      graph.import_buffer(name_ + ".volume", {volume_.handle(), volume_.size(), graph::Access::None, graph::Access::None});
  // Level l (0 = the cells' counts) is a square of side >> (l + 1) texels, in 8x8 workgroups.
  std::vector<PyramidLevel> levels;
  for (uint32_t level = 0; level < levels_; ++level) {
    const uint32_t groups = ((layout_.side >> (level + 1)) + 7) / 8;
    levels.push_back({PyramidConstants::of(params(iso, level)), glm::uvec2(groups)});
  }
  return passes_.add(graph, volume, pyramid_texels_ * 16, levels);
}

}  // namespace meniscus::passes
