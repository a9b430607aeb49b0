#include "passes/surface/record_pyramid_gpu.h"

#include <cstring>
#include <numeric>

#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus::passes {
namespace {

// The cube records' shaders and pyramid buffer (see pyramid_passes.h).
constexpr PyramidKind kRecordPyramid{"rp_count", "rp_reduce", "rp_indirect", "rp_extract", "record_pyramid"};

// The shaders read records as 32-bit words, a record's 15 bytes possibly spanning four of
// them: the buffer is the records rounded up to whole words.
VkDeviceSize record_buffer_bytes(size_t records) { return (VkDeviceSize(records) * sizeof(sim::CubeRecord) + 3) / 4 * 4; }

Buffer host_buffer(const Context& context, VkDeviceSize bytes, const char* name) {
  return Buffer(context, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload, name);
}

}  // namespace

std::vector<uint32_t> GpuRecordPyramid::level_texels(uint32_t records) {
  std::vector<uint32_t> texels{(records + 3) / 4};
  while (texels.back() > 1) texels.push_back((texels.back() + 3) / 4);
  return texels;
}

GpuRecordPyramid::GpuRecordPyramid(const Context& context, uint32_t slots, std::string name)
    : context_(context),
      name_(std::move(name)),
      slots_(slots),
      passes_(context, name_, kRecordPyramid, [&] {
        const std::vector<uint32_t> tables = packed_mc_tables();
        Buffer buffer = host_buffer(context, tables.size() * sizeof(uint32_t), "surface.mc_tables");
        std::memcpy(buffer.mapped(), tables.data(), tables.size() * sizeof(uint32_t));
        return buffer;
      }()) {}

void GpuRecordPyramid::upload(uint32_t slot, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  Slot& s = slots_.at(slot);
  const size_t count = set.records.size();
  if (count >= (size_t(1) << 32) / 16) throw InputError(name_ + ": over 268 M cube records in one frame");
  const VkDeviceSize bytes = record_buffer_bytes(count);
  if (bytes > context_.limits().maxStorageBufferRange)
    throw InputError(name_ + ": " + std::to_string(count) + " cube records exceed one storage buffer on " + context_.info().name);
  // This slot's previous frame has completed, so its buffer may be replaced outright; grown
  // with room to spare, as an evolving surface changes its size a little every frame.
  if (!s.records || s.records.size() < bytes) s.records = host_buffer(context_, std::max<VkDeviceSize>(bytes + bytes / 4, 64), "surface.records");
  std::memcpy(s.records.mapped(), set.records.data(), count * sizeof(sim::CubeRecord));
  const uint32_t levels = count ? uint32_t(level_texels(uint32_t(count)).size()) : 0;
  s.params = {glm::uvec4(uint32_t(count), levels, 0, 0), glm::vec4(origin, voxel_size), glm::vec4(set.gamma / 128.0f, 0, 0, 0),
              glm::vec4(0.0f)};
}

std::optional<PyramidOutputs> GpuRecordPyramid::add(graph::FrameGraph& graph, uint32_t slot) {
  const Slot& s = slots_.at(slot);
  const uint32_t count = s.params.counts.x;
  if (count == 0) return std::nullopt;
  // The host wrote the records before submitting; the slot's fence orders the next write.
  const graph::BufferHandle records = graph.import_buffer(
      name_ + ".records", {s.records.handle(), s.records.size(), graph::Access::HostWrite, graph::Access::HostWrite});
  // Level l is a row of texels, 64 to a workgroup.
  const std::vector<uint32_t> texels = level_texels(count);
  std::vector<PyramidLevel> levels;
  for (uint32_t level = 0; level < texels.size(); ++level) {
    RecordPyramidParams p = s.params;
    p.counts.z = level;
    levels.push_back({PyramidConstants::of(p), glm::uvec2((texels[level] + 63) / 64, 1)});
  }
  const uint64_t total_texels = std::accumulate(texels.begin(), texels.end(), uint64_t(0));
  return passes_.add(graph, records, total_texels * 16, levels);
}

}  // namespace meniscus::passes
