// SurfacePass drawing a level set's layer from the record buffer a level-set stage publishes
// (cube_record_buffer.h, a host-kind SharedBuffer here, as the CPU backend's) against the same
// records uploaded by the host: the same pixels, on lavapipe with validation on. And the
// frame's header copy, once per frame however many views draw the layer, is what
// last_record_header returns after the frame.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/image.h"
#include "engine/graph/executor.h"
#include "engine/interop/shared_buffer.h"
#include "passes/background/background_pass.h"
#include "passes/common/frame_uniforms.h"
#include "passes/fluid/fluid_offscreen.h"
#include "passes/readback/readback_pass.h"
#include "passes/sky/sky_pass.h"
#include "passes/surface/surface_pass.h"
#include "passes/tonemap/tonemap_pass.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/level_set_builder.h"

namespace meniscus {
namespace {

constexpr VkExtent2D kExtent{320, 240};
constexpr VkFormat kOutputFormat = VK_FORMAT_R8G8B8A8_UNORM;

passes::FrameUniforms frame_uniforms() {
  passes::FluidCamera camera;
  camera.position = {0.6f, 1.8f, 3.0f};
  camera.target = {0.0f, 1.0f, 0.0f};
  passes::FrameUniforms u{};
  u.view = camera.view();
  u.proj = camera.proj(kExtent);
  u.view_proj = u.proj * u.view;
  u.inv_view_proj = glm::inverse(u.view_proj);
  u.camera_position = glm::vec4(camera.position, 0.0f);
  u.sun_direction = glm::vec4(glm::normalize(glm::vec3(0.4f, 0.8f, 0.3f)), 3.0f);
  u.sun_color = glm::vec4(1.0f, 0.95f, 0.88f, 1.0f);
  u.sky_zenith = glm::vec4(0.22f, 0.42f, 0.82f, 0.0f);
  u.sky_horizon = glm::vec4(0.75f, 0.82f, 0.92f, 0.0f);
  u.viewport = glm::vec4(kExtent.width, kExtent.height, 1.0f / kExtent.width, 1.0f / kExtent.height);
  u.flags = glm::vec4(0.0f, camera.near_plane, camera.far_plane, 0.0f);
  return u;
}

// A sphere's level set on voxels [0, 72)^3, placed by a box of that size (voxel v at v).
struct SphereLevelSet {
  sim::levelset::SortedTileList list{1.5f};
  sim::CubeRecordSet set;
  sim::Volume box;
  SphereLevelSet() {
    const glm::vec3 centre(34.5f, 33.2f, 35.8f);
    sim::levelset::build_from_sdf(list, [&](glm::vec3 p) { return glm::length(p - centre) - 30.0f; }, glm::ivec3(0),
                                  glm::ivec3(72));
    sim::levelset::generate_cube_records(list, set);
    box.dims = glm::uvec3(72);
  }
};

// sky -> background -> surface (once per view) -> tonemap -> read-back, on frame slot 0.
class SurfaceFrame {
 public:
  SurfaceFrame(const Context& context, const sim::Volume& box)
      : context_(context),
        uniforms_(context, sizeof(passes::FrameUniforms), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload, "test.frame"),
        output_(context,
                ImageSpec{.format = kOutputFormat,
                          .extent = kExtent,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT},
                "test.output"),
        readback_(context, VkDeviceSize(kExtent.width) * kExtent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  MemoryUse::Readback, "test.readback"),
        executor_(context, 1),
        sky_(context, 64),
        background_(context),
        tonemap_(context, kOutputFormat),
        surface(context, box,
                passes::SurfaceSettings{.layers = {passes::SurfaceLayer{.name = "skin", .color = glm::vec3(0.9f, 0.5f, 0.3f)}}},
                passes::SurfaceSource::CubeRecords, 1) {
    const passes::FrameUniforms u = frame_uniforms();
    std::memcpy(uniforms_.mapped(), &u, sizeof u);
  }

  // The frame's pixels; `views` draws of the surface into the same targets, as a split screen
  // draws a layer once per side.
  std::vector<uint8_t> render(int views = 1) {
    graph::FrameGraph graph;
    const graph::BufferHandle frame = graph.import_buffer(
        "frame.uniforms", {uniforms_.handle(), uniforms_.size(), graph::Access::HostWrite, graph::Access::HostWrite});
    const graph::ImageHandle sky = sky_.add(graph, frame);
    passes::SceneTargets targets = background_.add(graph, kExtent, sky, frame);
    for (int view = 0; view < views; ++view) {
      const graph::NameScope scope(graph, "view" + std::to_string(view));
      targets = surface.add(graph, targets, sky, frame, 0);
    }
    graph::ImageHandle out = graph.import_image(
        "output.image", {output_.handle(), output_.view(), {.format = kOutputFormat, .extent = kExtent}, graph::Access::None,
                         graph::Access::TransferSrc});
    out = tonemap_.add(graph, targets.color, out, 1.0f);
    passes::add_readback(graph, out,
                         graph.import_buffer("output.readback",
                                             {readback_.handle(), readback_.size(), graph::Access::None, graph::Access::HostRead}));
    submit_and_wait(context_, [&](VkCommandBuffer cmd) { executor_.execute(graph, cmd, nullptr); });
    header_copies = 0;
    for (const graph::PassNode& pass : graph.passes()) header_copies += pass.name.ends_with(".header_readback");
    readback_.invalidate();
    const auto* pixels = static_cast<const uint8_t*>(readback_.mapped());
    return {pixels, pixels + readback_.size()};
  }

 private:
  const Context& context_;
  Buffer uniforms_;
  Image output_;
  Buffer readback_;
  graph::GraphExecutor executor_;
  passes::SkyPass sky_;
  passes::BackgroundPass background_;
  passes::TonemapPass tonemap_;

 public:
  passes::SurfacePass surface;
  int header_copies = 0;  // in the last frame's graph
};

size_t differing_pixels(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = 0;
  for (size_t i = 0; i < a.size(); i += 4) n += std::memcmp(&a[i], &b[i], 4) != 0;
  return n;
}

}  // namespace

TEST_CASE("surface pass: a layer drawn from a record buffer looks as the uploaded records do", "[surface][vulkan][records]") {
  Context context(ContextOptions{.validation = true});
  const SphereLevelSet level_set;
  SurfaceFrame frame(context, level_set.box);
  const auto needed = uint32_t(level_set.set.records.size());

  frame.surface.update_records(0, 0, sim::CubeRecordSet{}, glm::vec3(0.0f), 1.0f);
  const std::vector<uint8_t> background = frame.render();
  frame.surface.update_records(0, 0, level_set.set, glm::vec3(level_set.set.origin), 1.0f);
  const std::vector<uint8_t> uploaded = frame.render();
  CHECK(frame.header_copies == 0);
  CHECK_FALSE(frame.surface.last_record_header(0, 0));
  // The surface covers a good part of the frame: the comparisons below are not of two skies.
  CHECK(differing_pixels(background, uploaded) > kExtent.width * kExtent.height / 20);

  const SharedBuffer shared(context, sim::cube_record_buffer_bytes(needed + 64), SharedMemory::Host, "test.records");
  sim::levelset::write_cube_records(level_set.list, 0.0f, static_cast<std::byte*>(shared.host_pointer()), needed + 64);
  const passes::RecordBuffer records{shared.buffer(), shared.size(), needed + 64, false};

  SECTION("one view") {
    frame.surface.use_record_buffer(0, 0, records, glm::vec3(0.0f), 1.0f);
    CHECK(differing_pixels(frame.render(), uploaded) == 0);
    CHECK(frame.header_copies == 1);
  }
  SECTION("two views of one frame copy the header once") {
    frame.surface.use_record_buffer(0, 0, records, glm::vec3(0.0f), 1.0f);
    CHECK(differing_pixels(frame.render(2), uploaded) == 0);
    CHECK(frame.header_copies == 1);
  }
  const std::optional<sim::CubeRecordHeader> header = frame.surface.last_record_header(0, 0);
  REQUIRE(header);
  CHECK(header->count == needed);
  CHECK(header->needed == needed);

  // The header says the count: cleared, the buffer draws nothing, and the next frame's copy says so.
  sim::CubeRecordHeader cleared = *header;
  cleared.count = 0;
  std::memcpy(shared.host_pointer(), &cleared, sizeof cleared);
  frame.surface.use_record_buffer(0, 0, records, glm::vec3(0.0f), 1.0f);
  CHECK(differing_pixels(frame.render(), background) == 0);
  CHECK(frame.surface.last_record_header(0, 0)->count == 0);
  // Back to uploads: the record buffer is no longer read.
  frame.surface.update_records(0, 0, level_set.set, glm::vec3(level_set.set.origin), 1.0f);
  CHECK(differing_pixels(frame.render(), uploaded) == 0);
  CHECK(frame.header_copies == 0);
  CHECK(context.validation_error_count() == 0);
}

}  // namespace meniscus
