#include "passes/sky/sky_pass.h"

namespace meniscus::passes {

namespace {
constexpr VkFormat kCubeFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
}

SkyPass::SkyPass(const Context& context, uint32_t face_size)
    : cube_(context,
            ImageSpec{.format = kCubeFormat,
                      .extent = {face_size, face_size},
                      .layers = 6,
                      .cube = true,
                      .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT},
            "environment.sky_cube"),
      pipeline_(context, ComputePipelineDesc{.shader = "sky.comp",
                                             .bindings = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_SHADER_STAGE_COMPUTE_BIT},
                                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_SHADER_STAGE_COMPUTE_BIT}},
                                             .debug_name = "environment.sky"}) {}

graph::ImageHandle SkyPass::add(graph::FrameGraph& graph, graph::BufferHandle frame) {
  const graph::ImageDesc desc{.format = kCubeFormat, .extent = cube_.spec().extent, .layers = 6, .cube = true};
  const bool bake = !baked_;
  // Before the first bake the content is undefined; afterwards it enters each frame sampled.
  graph::ImageHandle cube = graph.import_image(
      "environment.sky_cube",
      graph::ExternalImage{.image = cube_.handle(),
                           .view = cube_.view(),
                           .desc = desc,
                           .initial = bake ? graph::Access::None : graph::Access::FragmentSample,
                           .final = graph::Access::FragmentSample,
                           .storage_view = cube_.storage_view()});
  if (!bake) return cube;
  baked_ = true;

  graph::ImageHandle baked;
  graph.add_pass("environment.sky", [&](graph::PassBuilder& builder) {
    builder.read(frame, graph::Access::ComputeStorageRead);
    baked = builder.write(cube, graph::Access::ComputeStorageWrite);
    return [this, baked, frame](graph::PassContext& ctx) {
      DescriptorWrites writes;
      writes.image(0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, ctx.storage_view(baked), VK_IMAGE_LAYOUT_GENERAL)
          .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ctx.buffer(frame));
      pipeline_.bind(ctx.cmd);
      pipeline_.push_descriptors(ctx.cmd, writes);
      const VkExtent2D extent = ctx.desc(baked).extent;
      vkCmdDispatch(ctx.cmd, (extent.width + 7) / 8, (extent.height + 7) / 8, 6);
    };
  });
  return baked;
}

}  // namespace meniscus::passes
