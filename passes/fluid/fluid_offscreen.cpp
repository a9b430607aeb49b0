#include "passes/fluid/fluid_offscreen.h"

#include <cmath>
#include <cstring>
#include <map>

#include <glm/gtc/matrix_transform.hpp>

#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "passes/common/frame_uniforms.h"

namespace meniscus::passes {
namespace {

constexpr uint32_t kSkyFaceSize = 64;  // small: only reflections sample it here

FrameUniforms make_uniforms(const FluidCamera& camera, VkExtent2D extent) {
  FrameUniforms u{};
  u.view = camera.view();
  u.proj = camera.proj(extent);
  u.view_proj = u.proj * u.view;
  u.inv_view_proj = glm::inverse(u.view_proj);
  u.camera_position = glm::vec4(camera.position, 0.0f);
  // The scene defaults' sun and sky (engine/app/scene.h).
  u.sun_direction = glm::vec4(glm::normalize(glm::vec3(0.4f, 0.7f, 0.3f)), 3.0f);
  u.sun_color = glm::vec4(1.0f, 0.95f, 0.88f, 1.0f);
  u.sky_zenith = glm::vec4(0.22f, 0.42f, 0.82f, 0.0f);
  u.sky_horizon = glm::vec4(0.75f, 0.82f, 0.92f, 0.0f);
  u.ground_color_a = glm::vec4(0.55f, 0.55f, 0.52f, camera.ground_height);
  u.ground_color_b = glm::vec4(0.35f, 0.35f, 0.33f, 1.0f);
  u.viewport = glm::vec4(extent.width, extent.height, 1.0f / extent.width, 1.0f / extent.height);
  u.flags = glm::vec4(camera.ground ? 1.0f : 0.0f, camera.near_plane, camera.far_plane, 0.0f);
  return u;
}

std::vector<float> read_floats(const Buffer& buffer, VkExtent2D extent) {
  buffer.invalidate();
  std::vector<float> out(size_t(extent.width) * extent.height);
  std::memcpy(out.data(), buffer.mapped(), out.size() * sizeof(float));
  return out;
}

// Copies one image into a host buffer inside the frame (a pass per image, named after it).
void add_copy(graph::FrameGraph& graph, const std::string& name, graph::ImageHandle image, const Buffer& buffer) {
  graph.add_pass("readback." + name, [&](graph::PassBuilder& b) {
    b.read(image, graph::Access::TransferSrc);
    const graph::BufferHandle dst = b.write(
        graph.import_buffer("readback." + name, {buffer.handle(), buffer.size(), graph::Access::None, graph::Access::HostRead}),
        graph::Access::TransferDst);
    return [image, dst](graph::PassContext& ctx) {
      const VkExtent2D extent = ctx.desc(image).extent;
      VkBufferImageCopy region{};
      region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.imageExtent = {extent.width, extent.height, 1};
      vkCmdCopyImageToBuffer(ctx.cmd, ctx.image(image), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, ctx.buffer(dst), 1, &region);
    };
  });
}

}  // namespace

glm::mat4 FluidCamera::view() const { return glm::lookAt(position, target, glm::vec3(0, 1, 0)); }

glm::mat4 FluidCamera::proj(VkExtent2D extent) const {
  const float f = 1.0f / std::tan(glm::radians(fov_y_degrees) * 0.5f);
  glm::mat4 m(0.0f);
  m[0][0] = f * float(extent.height) / float(extent.width);
  m[1][1] = -f;
  m[2][2] = far_plane / (near_plane - far_plane);
  m[2][3] = -1.0f;
  m[3][2] = near_plane * far_plane / (near_plane - far_plane);
  return m;
}

FluidOffscreen::FluidOffscreen(const Context& context, VkExtent2D extent, const std::vector<sim::Particle>& particles)
    : context_(context),
      extent_(extent),
      count_(uint32_t(particles.size())),
      particles_(context, std::max<VkDeviceSize>(1, particles.size()) * sizeof(sim::Particle),
                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload, "fluid_offscreen.particles"),
      uniforms_(context, sizeof(FrameUniforms), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload,
                "fluid_offscreen.frame"),
      executor_(context, 1),
      timer_(context, 1),
      sky_(context, kSkyFaceSize),
      background_(context),
      fluid_(context) {
  if (!particles.empty()) std::memcpy(particles_.mapped(), particles.data(), particles.size() * sizeof(sim::Particle));
}

FluidOffscreen::~FluidOffscreen() { context_.wait_idle(); }

FluidReadback FluidOffscreen::render(const FluidCamera& camera, const FluidSettings& settings, bool read_back) {
  const FrameUniforms uniforms = make_uniforms(camera, extent_);
  std::memcpy(uniforms_.mapped(), &uniforms, sizeof(uniforms));
  FluidReadback result;
  result.extent = fluid_extent(extent_, settings.resolution_divisor);
  const VkDeviceSize bytes = VkDeviceSize(result.extent.width) * result.extent.height * sizeof(float);
  std::map<std::string, Buffer> readbacks;
  for (const char* name : {"depth", "smoothed", "thickness", "noise"})
    if (read_back) readbacks.emplace(name, Buffer(context_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, name));

  graph::FrameGraph graph;
  const graph::BufferHandle frame = graph.import_buffer(
      "frame.uniforms", {uniforms_.handle(), uniforms_.size(), graph::Access::HostWrite, graph::Access::HostWrite});
  const graph::BufferHandle particles = graph.import_buffer(
      "particles", {particles_.handle(), particles_.size(), graph::Access::HostWrite, graph::Access::HostWrite});
  const graph::ImageHandle sky = sky_.add(graph, frame);
  SceneTargets targets = background_.add(graph, extent_, sky, frame);
  FluidImages images;
  targets = fluid_.add(graph, targets, {particles, count_, frame, sky, uniforms.proj, extent_}, settings, &images);
  // The scene colour has to be consumed or the whole chain is culled: copy it out too.
  Buffer color(context_, VkDeviceSize(extent_.width) * extent_.height * 8, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
               MemoryUse::Readback, "fluid_offscreen.color");
  add_copy(graph, "scene_color", targets.color, color);
  auto copy_out = [&](const char* name, graph::ImageHandle image) {
    if (read_back && image.valid()) add_copy(graph, name, image, readbacks.at(name));
  };
  copy_out("depth", images.depth);
  copy_out("smoothed", images.smoothed);
  copy_out("thickness", images.thickness);
  copy_out("noise", images.noise);

  submit_and_wait(context_, [&](VkCommandBuffer cmd) {
    timer_.begin_frame(cmd, 0);
    executor_.execute(graph, cmd, 0, &timer_);
  });
  result.passes = timer_.collect(0);
  if (read_back) {
    result.depth = read_floats(readbacks.at("depth"), result.extent);
    result.smoothed = read_floats(readbacks.at("smoothed"), result.extent);
    result.thickness = read_floats(readbacks.at("thickness"), result.extent);
    if (images.noise.valid()) result.noise = read_floats(readbacks.at("noise"), result.extent);
  }
  return result;
}

}  // namespace meniscus::passes
