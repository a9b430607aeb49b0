#include "passes/surface/record_pyramid_gpu.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "sim/histopyramid/cube_record_buffer.h"

namespace meniscus::passes {
namespace {

// The cube records' shaders and pyramid buffer (see pyramid_passes.h).
constexpr PyramidKind kRecordPyramid{"rp_count", "rp_reduce", "rp_indirect", "rp_extract", "record_pyramid"};

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
      }()),
      headers_(context, slots, name_) {}

void GpuRecordPyramid::check_fits(uint64_t records) const {
  // The shaders index bytes with 32-bit integers.
  if (records >= (uint64_t(1) << 32) / 16) throw InputError(name_ + ": over 268 M cube records in one frame");
  if (sim::cube_record_buffer_bytes(uint32_t(records)) > context_.limits().maxStorageBufferRange)
    throw InputError(name_ + ": " + std::to_string(records) + " cube records exceed one storage buffer on " + context_.info().name);
}

void GpuRecordPyramid::upload(uint32_t slot, const sim::CubeRecordSet& set, glm::vec3 origin, float voxel_size) {
  Slot& s = slots_.at(slot);
  const size_t count = set.records.size();
  check_fits(count);
  const VkDeviceSize bytes = sim::cube_record_buffer_bytes(uint32_t(count));
  // This slot's previous frame has completed, so its buffer may be replaced outright; grown
  // with room to spare, as an evolving surface changes its size a little every frame.
  if (!s.records || s.records.size() < bytes) s.records = host_buffer(context_, bytes + bytes / 4, "surface.records");
  // The layout a level-set stage writes, so that the shaders read one; `origin` already places
  // record position 0, so the header's origin voxel is 0.
  sim::CubeRecordHeader header{};
  header.count = header.needed = uint32_t(count);
  header.gamma = set.gamma;
  header.iso = set.iso;
  auto* bytes_out = static_cast<std::byte*>(s.records.mapped());
  std::memcpy(bytes_out, &header, sizeof header);
  if (count) std::memcpy(bytes_out + sim::kCubeRecordsOffset, set.records.data(), count * sizeof(sim::CubeRecord));
  const uint32_t levels = count ? uint32_t(level_texels(uint32_t(count)).size()) : 0;
  s.params = {glm::uvec4(uint32_t(count), levels, 0, uint32_t(count)), glm::vec4(origin, voxel_size), {}};
}

std::optional<PyramidOutputs> GpuRecordPyramid::add(graph::FrameGraph& graph, uint32_t slot) {
  const Slot& s = slots_.at(slot);
  if (s.params.counts.x == 0) return std::nullopt;
  // The host wrote the records before submitting; the slot's fence orders the next write.
  const graph::BufferHandle records = graph.import_buffer(
      name_ + ".records", {s.records.handle(), s.records.size(), graph::Access::HostWrite, graph::Access::HostWrite});
  return build(graph, records, s.params);
}

PyramidOutputs GpuRecordPyramid::add(graph::FrameGraph& graph, uint32_t slot, const RecordBufferSource& source) {
  check_fits(source.capacity);
  const graph::ResourceNode& node = graph.resources().at(source.records.index);
  if (node.imported && node.external_buffer.size < sim::cube_record_buffer_bytes(source.capacity))
    throw std::invalid_argument(name_ + ": record buffer '" + node.name + "' holds " + std::to_string(node.external_buffer.size) +
                                " bytes, not the " + std::to_string(sim::cube_record_buffer_bytes(source.capacity)) +
                                " of a capacity of " + std::to_string(source.capacity) + " records");
  if (source.read_back_header) headers_.add(graph, slot, source.records);
  // Sized for the capacity (at least one record, so that the top texel exists): the count is
  // in the header, which only the GPU reads in time.
  const uint32_t sized = std::max(source.capacity, 1u);
  const uint32_t levels = uint32_t(level_texels(sized).size());
  return build(graph, source.records,
               {glm::uvec4(sized, levels, 0, source.capacity), glm::vec4(source.voxel0, source.voxel_size), {}});
}

PyramidOutputs GpuRecordPyramid::build(graph::FrameGraph& graph, graph::BufferHandle records,
                                       const RecordPyramidParams& params) const {
  // Level l is a row of texels, 64 to a workgroup.
  const std::vector<uint32_t> texels = level_texels(params.counts.x);
  std::vector<PyramidLevel> levels;
  for (uint32_t level = 0; level < texels.size(); ++level) {
    RecordPyramidParams p = params;
    p.counts.z = level;
    levels.push_back({PyramidConstants::of(p), glm::uvec2((texels[level] + 63) / 64, 1)});
  }
  const uint64_t total_texels = std::accumulate(texels.begin(), texels.end(), uint64_t(0));
  return passes_.add(graph, records, total_texels * 16, levels);
}

}  // namespace meniscus::passes
