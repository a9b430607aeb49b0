#include "engine/app/capture.h"

#include <cstdio>
#include <cstring>

#include "engine/app/scene.h"
#include "engine/app/scene_renderer.h"
#include "engine/app/pass_settings.h"
#include "engine/app/timing_files.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "engine/core/image.h"
#include "engine/core/log.h"
#include "engine/profile/timing_log.h"
#include "sim/common/backend.h"
#include "sim/histopyramid/indexed_mesh.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/levelset/vdb_io.h"

namespace meniscus {
namespace {

constexpr VkFormat kOutputFormat = VK_FORMAT_R8G8B8A8_UNORM;

// The mesh of the level set the surface pass draws, from the same cube records it drew.
void export_level_set_mesh(SceneRenderer& renderer, const std::filesystem::path& file) {
  sim::levelset::LevelSetStage* level_set = renderer.composer().drawn_level_set();
  const float iso = renderer.surface()->layers().front().iso;
  const sim::CubeRecordSet& records = level_set->records(-iso);
  const sim::IndexedMesh mesh = sim::extract_record_mesh(records, level_set->record_origin(), level_set->voxel_size());
  sim::write_mesh(file, mesh);
  std::printf("wrote %s (%zu vertices, %zu triangles, level set \"%s\")\n", file.c_str(), mesh.positions.size(),
              mesh.triangles.size(), level_set->box().source.c_str());
}

// The level set the surface pass draws, as an OpenVDB grid at its place in the box's units.
void export_level_set_vdb(SceneRenderer& renderer, const std::filesystem::path& file) {
  sim::levelset::LevelSetStage* level_set = renderer.composer().drawn_level_set();
  const float h = level_set->voxel_size();
  const glm::vec3 offset = level_set->voxel0() / h;  // voxel v at (v + offset) h, OpenVDB's index space
  const sim::levelset::SortedTileList& list = level_set->host_level_set();
  sim::levelset::write_vdb(file, list, glm::ivec3(glm::round(offset)), h);
  std::printf("wrote %s (%zu tiles, voxel %g, level set \"%s\")\n", file.c_str(), list.size(), h,
              level_set->box().source.c_str());
}

}  // namespace

CaptureResult capture(const CaptureOptions& options) {
  const limits::AllocationScope scope("capturing " + options.scene.string());
  Scene scene = load_scene(options.scene);
  if (options.width) scene.render.width = *options.width;
  if (options.height) scene.render.height = *options.height;
  const std::vector<StageFacts> stages = check_scene_settings(scene);
  check_fluid_debug_flag(scene, options.fluid_debug);
  if (options.export_mesh || options.export_vdb) {
    const auto surface = read_surface_settings(scene, stages);
    if (!surface || !surface->stage)
      throw InputError(scene.source.string() + ": --export-mesh and --export-vdb need a [pass.surface] drawing a level-set stage "
                                               "(volume = \"stage:<name>\")");
  }
  const VkExtent2D extent{scene.render.width, scene.render.height};

  Context context(ContextOptions{.validation = options.validation, .preferred_device = options.device});
  const sim::SimBackend backend = sim::resolve_backend(options.sim, context.info());
  SceneRenderer renderer(context, scene, kOutputFormat, backend);
  if (options.fluid_debug) renderer.fluid_settings()->debug_view = *options.fluid_debug;

  // One target and readback buffer per frame in flight: frame N+1 renders while N is read.
  struct Target {
    Image image;
    Buffer readback;
  };
  std::vector<Target> targets;
  for (uint32_t i = 0; i < renderer.frames_in_flight(); ++i) {
    targets.push_back({Image(context,
                             ImageSpec{.format = kOutputFormat,
                                       .extent = extent,
                                       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT},
                             "output.offscreen"),
                       Buffer(context, VkDeviceSize(extent.width) * extent.height * 4,
                              VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "output.readback")});
  }

  profile::TimingLog log;
  renderer.record_timings(&log, options.warmup);
  const uint32_t total = options.warmup + options.frames;
  uint32_t last_slot = 0;
  for (uint32_t frame = 0; frame < total; ++frame) {
    last_slot = renderer.next_slot();
    Target& target = targets[last_slot];
    if (options.dump_graph && frame + 1 == total) renderer.dump_graph_next_frame(options.dump_graph->string());
    const bool last = frame + 1 == total;
    renderer.render({target.image.handle(), target.image.view(), kOutputFormat, extent,
                     graph::Access::None, graph::Access::TransferSrc},
                    {}, options.dt, {}, last ? &target.readback : nullptr);
  }
  renderer.finish();

  CaptureResult result;
  result.device = context.info().name;
  const Buffer& readback = targets[last_slot].readback;
  readback.invalidate();
  result.image = {extent.width, extent.height, std::vector<uint8_t>(readback.size())};
  std::memcpy(result.image.pixels.data(), readback.mapped(), readback.size());
  if (options.png) write_png(*options.png, result.image);
  if (options.export_mesh) export_level_set_mesh(renderer, *options.export_mesh);
  if (options.export_vdb) export_level_set_vdb(renderer, *options.export_vdb);

  write_timing_files(log, options.timings, context, scene, backend, extent, options.frames, options.warmup);
  result.validation_errors = context.validation_error_count();
  return result;
}

}  // namespace meniscus
