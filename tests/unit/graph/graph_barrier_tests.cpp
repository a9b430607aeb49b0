// Barriers and layouts derived from each resource's previous access to its next.
#include "tests/unit/graph/graph_fixture.h"

namespace meniscus::graph {
using namespace testing;

namespace {

// draw (color write) -> post (sample color) -> present
struct DrawThenSample {
  FrameGraph graph;
  DrawThenSample(Access sample_access) {
    ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
    ImageHandle color;
    graph.add_pass("scene.draw", [&](PassBuilder& b) {
      color = b.write(b.create_image("scene.color", color_desc()), Access::ColorAttachmentWrite);
      return no_commands();
    });
    graph.add_pass("post.filter", [&](PassBuilder& b) {
      b.read(color, sample_access);
      out = b.write(out, Access::ColorAttachmentWrite);
      return no_commands();
    });
    graph.compile(fake_requirements);
  }
};

}  // namespace

TEST_CASE("first use of a transient image transitions from UNDEFINED with no source scope", "[graph][barriers]") {
  DrawThenSample g(Access::FragmentSample);
  const Barrier* b = barrier_before(g.graph, "scene.draw", "scene.color");
  REQUIRE(b);
  CHECK(b->old_layout == VK_IMAGE_LAYOUT_UNDEFINED);
  CHECK(b->new_layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_NONE);
  CHECK(b->dst_stages == VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
  CHECK(b->dst_access == VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

TEST_CASE("read after write: colour attachment to sampled image", "[graph][barriers]") {
  DrawThenSample g(Access::FragmentSample);
  const Barrier* b = barrier_before(g.graph, "post.filter", "scene.color");
  REQUIRE(b);
  CHECK(b->is_image);
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
  CHECK(b->src_access == VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  CHECK(b->dst_stages == VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
  CHECK(b->dst_access == VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
  CHECK(b->old_layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  CHECK(b->new_layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

TEST_CASE("read after write: compute sample waits for the colour writes", "[graph][barriers]") {
  DrawThenSample g(Access::ComputeSample);
  const Barrier* b = barrier_before(g.graph, "post.filter", "scene.color");
  REQUIRE(b);
  CHECK(b->dst_stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  CHECK(b->new_layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

TEST_CASE("imported swapchain image: None in, Present out", "[graph][barriers][imported]") {
  DrawThenSample g(Access::FragmentSample);
  const Barrier* first = barrier_before(g.graph, "post.filter", "output.image");
  REQUIRE(first);
  CHECK(first->old_layout == VK_IMAGE_LAYOUT_UNDEFINED);
  CHECK(first->new_layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  const auto& finals = g.graph.compiled().final_barriers;
  REQUIRE(finals.size() == 1);
  CHECK(finals[0].resource == resource_index(g.graph, "output.image"));
  CHECK(finals[0].old_layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  CHECK(finals[0].new_layout == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  CHECK(finals[0].src_stages == VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
  CHECK(finals[0].src_access == VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

TEST_CASE("imported resources start from their external state", "[graph][barriers][imported]") {
  // A buffer the CPU wrote before the frame: the first GPU read waits on the host write.
  FrameGraph graph;
  BufferHandle particles = graph.import_buffer("sim.particles", {VK_NULL_HANDLE, 4096, Access::HostWrite, Access::HostWrite});
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::TransferSrc));
  graph.add_pass("particles.draw", [&](PassBuilder& b) {
    b.read(particles, Access::VertexStorageRead);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Barrier* b = barrier_before(graph, "particles.draw", "sim.particles");
  REQUIRE(b);
  CHECK_FALSE(b->is_image);
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_HOST_BIT);
  CHECK(b->src_access == VK_ACCESS_2_HOST_WRITE_BIT);
  CHECK(b->dst_stages == VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT);
  CHECK(b->dst_access == VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
  // And it leaves for the next host write: the GPU reads must finish first.
  bool found = false;
  for (const Barrier& f : graph.compiled().final_barriers)
    if (f.resource == resource_index(graph, "sim.particles")) {
      found = true;
      CHECK((f.src_stages & VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT) != 0);
      CHECK(f.dst_stages == VK_PIPELINE_STAGE_2_HOST_BIT);
    }
  CHECK(found);
}

TEST_CASE("read after read in the same layout needs no barrier", "[graph][barriers]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle color, a;
  graph.add_pass("scene.draw", [&](PassBuilder& b) {
    color = b.write(b.create_image("scene.color", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("post.a", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    a = b.write(b.create_image("post.a_out", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("post.b", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    b.read(a, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(barrier_before(graph, "post.a", "scene.color") != nullptr);
  CHECK(barrier_before(graph, "post.b", "scene.color") == nullptr);
}

TEST_CASE("write after read waits for the readers (execution dependency only)", "[graph][barriers]") {
  FrameGraph graph;
  BufferHandle buffer = graph.import_buffer("sim.state", {VK_NULL_HANDLE, 256, Access::None, Access::None});
  BufferHandle copy;
  graph.add_pass("sim.read", [&](PassBuilder& b) {
    b.read(buffer, Access::ComputeStorageRead);
    copy = b.write(b.create_buffer("sim.copy", {256}), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("sim.update", [&](PassBuilder& b) {
    b.read(copy, Access::ComputeStorageRead);
    buffer = b.write(buffer, Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Barrier* b = barrier_before(graph, "sim.update", "sim.state");
  REQUIRE(b);
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  CHECK(b->src_access == VK_ACCESS_2_NONE);  // WAR: no memory to make available
  CHECK(b->dst_access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

TEST_CASE("write after write keeps a memory dependency", "[graph][barriers]") {
  FrameGraph graph;
  BufferHandle buffer = graph.import_buffer("sim.state", {VK_NULL_HANDLE, 256, Access::None, Access::None});
  graph.add_pass("sim.first", [&](PassBuilder& b) {
    buffer = b.write(buffer, Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("sim.second", [&](PassBuilder& b) {
    buffer = b.write(buffer, Access::TransferDst);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Barrier* b = barrier_before(graph, "sim.second", "sim.state");
  REQUIRE(b);
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  CHECK(b->src_access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  CHECK(b->dst_access == VK_ACCESS_2_TRANSFER_WRITE_BIT);
}

TEST_CASE("depth written then tested read-only", "[graph][barriers]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle depth;
  graph.add_pass("scene.depth_prepass", [&](PassBuilder& b) {
    depth = b.write(b.create_image("scene.depth", depth_desc()), Access::DepthAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("scene.shade", [&](PassBuilder& b) {
    b.read(depth, Access::DepthAttachmentRead);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("post.fog", [&](PassBuilder& b) {
    b.read(depth, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentReadWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Barrier* write = barrier_before(graph, "scene.depth_prepass", "scene.depth");
  REQUIRE(write);
  CHECK(write->new_layout == VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
  const Barrier* test = barrier_before(graph, "scene.shade", "scene.depth");
  REQUIRE(test);
  CHECK(test->old_layout == VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL);
  CHECK(test->new_layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
  CHECK(test->src_access == (VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT));
  // Sampling a depth image uses the same read-only layout; only the new stage must wait.
  const Barrier* sample = barrier_before(graph, "post.fog", "scene.depth");
  REQUIRE(sample);
  CHECK(sample->old_layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
  CHECK(sample->new_layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
  CHECK(sample->dst_stages == VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
  // The colour target is written twice: the second write waits on the first.
  const Barrier* waw = barrier_before(graph, "post.fog", "output.image");
  REQUIRE(waw);
  CHECK(waw->src_access == VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

TEST_CASE("a swapchain image's first transition waits at its first user's stage", "[graph][barriers][imported]") {
  // The acquire semaphore is waited on at some stage; an empty source scope would let the
  // UNDEFINED->COLOR_ATTACHMENT transition run before that wait.
  DrawThenSample g(Access::FragmentSample);
  const Barrier* first = barrier_before(g.graph, "post.filter", "output.image");
  REQUIRE(first);
  CHECK(first->src_stages == VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
  CHECK(first->src_access == VK_ACCESS_2_NONE);
  CHECK(first->dst_stages == VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
  CHECK(first->dst_access == VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
  CHECK(first->aspect == VK_IMAGE_ASPECT_COLOR_BIT);
  CHECK_FALSE(first->aliasing);
  // Presenting needs no access: the final barrier is a layout change after the writes.
  const auto images = g.graph.compiled().final_image_barriers();
  REQUIRE(images.size() == 1);
  CHECK(images[0].dst_stages == VK_PIPELINE_STAGE_2_NONE);
  CHECK(images[0].dst_access == VK_ACCESS_2_NONE);
  CHECK(images[0].aspect == VK_IMAGE_ASPECT_COLOR_BIT);
  CHECK(g.graph.compiled().final_buffer_barriers().empty());
}

TEST_CASE("an imported image that arrives sampled needs no barrier to be sampled again", "[graph][barriers][imported]") {
  FrameGraph graph;
  ImageHandle lut = graph.import_image("sky.lut", external_color(Access::FragmentSample, Access::FragmentSample));
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  graph.add_pass("sky.draw", [&](PassBuilder& b) {
    b.read(lut, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(barrier_before(graph, "sky.draw", "sky.lut") == nullptr);
  CHECK(barrier_before(graph, "sky.draw", "output.image") != nullptr);
  for (const Barrier& f : graph.compiled().final_barriers) CHECK(f.resource != resource_index(graph, "sky.lut"));
}

TEST_CASE("a later writer waits for every reader since the last write", "[graph][barriers]") {
  // Two readers in different stages share the read-only layout (no barrier between them);
  // the overwrite must still wait for both.
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle field;
  BufferHandle side;
  graph.add_pass("sim.write", [&](PassBuilder& b) {
    field = b.write(b.create_image("sim.field", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("sim.compute_read", [&](PassBuilder& b) {
    b.read(field, Access::ComputeSample);
    side = b.write(b.create_buffer("sim.side", {256}), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("sim.vertex_read", [&](PassBuilder& b) {
    b.read(field, Access::VertexSample);
    b.read(side, Access::VertexStorageRead);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("sim.rewrite", [&](PassBuilder& b) {
    field = b.write(field, Access::ColorAttachmentWrite);
    b.side_effect();
    return no_commands();
  });
  graph.compile(fake_requirements);
  REQUIRE(order_names(graph) ==
          std::vector<std::string>{"sim.write", "sim.compute_read", "sim.vertex_read", "sim.rewrite"});
  // The second reader only needs to chain behind the first reader, which saw the transition.
  const Barrier* second = barrier_before(graph, "sim.vertex_read", "sim.field");
  REQUIRE(second);
  CHECK(second->old_layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  CHECK(second->new_layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  CHECK(second->src_stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  CHECK(second->dst_stages == VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT);
  const Barrier* war = barrier_before(graph, "sim.rewrite", "sim.field");
  REQUIRE(war);
  CHECK(war->src_stages == (VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT));
  CHECK(war->src_access == VK_ACCESS_2_NONE);
  CHECK(war->old_layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  CHECK(war->new_layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  CHECK(war->dst_access == VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

TEST_CASE("a second reader in an already synchronised stage needs no barrier", "[graph][barriers]") {
  FrameGraph graph;
  BufferHandle indirect;
  graph.add_pass("mc.count", [&](PassBuilder& b) {
    indirect = b.write(b.create_buffer("mc.args", {64}), Access::ComputeStorageWrite);
    return no_commands();
  });
  for (const char* name : {"mc.draw_a", "mc.draw_b"})
    graph.add_pass(name, [&](PassBuilder& b) {
      b.read(indirect, Access::IndirectRead);
      b.side_effect();
      return no_commands();
    });
  graph.compile(fake_requirements);
  const Barrier* first = barrier_before(graph, "mc.draw_a", "mc.args");
  REQUIRE(first);
  CHECK_FALSE(first->is_image);
  CHECK(first->src_stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  CHECK(first->src_access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  CHECK(first->dst_stages == VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
  CHECK(first->dst_access == VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
  CHECK(first->aspect == 0);
  CHECK(barrier_before(graph, "mc.draw_b", "mc.args") == nullptr);
}

TEST_CASE("transfers synchronise every transfer stage, and readbacks end with a host barrier", "[graph][barriers]") {
  // Blits and resolves are not COPY: a copy-only scope would miss them.
  FrameGraph graph;
  BufferHandle readback = graph.import_buffer("output.readback", {VK_NULL_HANDLE, 4096, Access::None, Access::HostRead});
  ImageHandle color;
  graph.add_pass("scene.upload", [&](PassBuilder& b) {
    color = b.write(b.create_image("scene.color", color_desc()), Access::TransferDst);
    return no_commands();
  });
  graph.add_pass("output.copy", [&](PassBuilder& b) {
    b.read(color, Access::TransferSrc);
    readback = b.write(readback, Access::TransferDst);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Barrier* b = barrier_before(graph, "output.copy", "scene.color");
  REQUIRE(b);
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
  CHECK(b->src_access == VK_ACCESS_2_TRANSFER_WRITE_BIT);
  CHECK(b->dst_stages == VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
  CHECK(b->dst_access == VK_ACCESS_2_TRANSFER_READ_BIT);
  CHECK(b->old_layout == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  CHECK(b->new_layout == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  // The readback buffer arrives undefined (no barrier before the copy) and leaves for the host.
  CHECK(barrier_before(graph, "output.copy", "output.readback") == nullptr);
  const auto buffers = graph.compiled().final_buffer_barriers();
  REQUIRE(buffers.size() == 1);
  CHECK(buffers[0].resource == resource_index(graph, "output.readback"));
  CHECK(buffers[0].src_stages == VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
  CHECK(buffers[0].src_access == VK_ACCESS_2_TRANSFER_WRITE_BIT);
  CHECK(buffers[0].dst_stages == VK_PIPELINE_STAGE_2_HOST_BIT);
  CHECK(buffers[0].dst_access == VK_ACCESS_2_HOST_READ_BIT);
  CHECK(graph.compiled().final_image_barriers().empty());
}

TEST_CASE("a pass that tests and samples depth keeps one read-only layout", "[graph][barriers]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle depth;
  graph.add_pass("fluid.depth", [&](PassBuilder& b) {
    depth = b.write(b.create_image("fluid.depth", depth_desc()), Access::DepthAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("fluid.composite", [&](PassBuilder& b) {
    b.read(depth, Access::DepthAttachmentRead);
    b.read(depth, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Barrier* b = barrier_before(graph, "fluid.composite", "fluid.depth");
  REQUIRE(b);
  CHECK(b->aspect == VK_IMAGE_ASPECT_DEPTH_BIT);
  CHECK(b->new_layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL);
  CHECK(b->dst_stages == (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT |
                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT));
  CHECK(b->dst_access == (VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT));
  CHECK(graph.usage_of(resource_index(graph, "fluid.depth")) ==
        (VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
}

TEST_CASE("usage flags ignore accesses of culled passes", "[graph][barriers]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle color;
  graph.add_pass("scene.draw", [&](PassBuilder& b) {
    color = b.write(b.create_image("scene.color", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("debug.storage_view", [&](PassBuilder& b) {
    b.read(color, Access::ComputeStorageRead);
    (void)b.write(b.create_buffer("debug.histogram", {1024}), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("output.blit", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  const uint32_t color_index = resource_index(graph, "scene.color");
  CHECK((graph.usage_of(color_index) & VK_IMAGE_USAGE_STORAGE_BIT) != 0);  // before culling
  graph.compile([&](uint32_t r, const ResourceNode& node, uint32_t usage) {
    if (r == color_index) CHECK(usage == (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    return fake_requirements(r, node, usage);
  });
  REQUIRE(culled_names(graph) == std::vector<std::string>{"debug.storage_view"});
  CHECK(graph.usage_of(color_index) == (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
  const Placement* p = placement_of(graph, "scene.color");
  REQUIRE(p);
  CHECK(p->usage == (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
}

TEST_CASE("usage flags of a transient are the union of its accesses", "[graph][barriers]") {
  DrawThenSample g(Access::FragmentSample);
  const uint32_t usage = g.graph.usage_of(resource_index(g.graph, "scene.color"));
  CHECK(usage == (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
}

}  // namespace meniscus::graph
