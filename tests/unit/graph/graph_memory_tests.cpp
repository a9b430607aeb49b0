// Transient memory: resources with disjoint lifetimes share memory.
#include "tests/unit/graph/graph_fixture.h"

namespace meniscus::graph {
using namespace testing;

namespace {

// a -> (A read by pass 2) ; then B written by pass 3 and read by pass 4: A and B never overlap.
struct PingPong {
  FrameGraph graph;
  explicit PingPong(MemoryRequirementsFn requirements = fake_requirements) {
    ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
    ImageHandle a, a_sum, b_img;
    graph.add_pass("blur.write_a", [&](PassBuilder& b) {
      a = b.write(b.create_image("blur.a", color_desc()), Access::ComputeStorageWrite);
      return no_commands();
    });
    graph.add_pass("blur.read_a", [&](PassBuilder& b) {
      b.read(a, Access::ComputeSample);
      a_sum = b.write(b.create_image("blur.small", color_desc(8)), Access::ComputeStorageWrite);
      return no_commands();
    });
    graph.add_pass("blur.write_b", [&](PassBuilder& b) {
      b.read(a_sum, Access::ComputeSample);
      b_img = b.write(b.create_image("blur.b", color_desc()), Access::ComputeStorageWrite);
      return no_commands();
    });
    graph.add_pass("output.compose", [&](PassBuilder& b) {
      b.read(b_img, Access::FragmentSample);
      out = b.write(out, Access::ColorAttachmentWrite);
      return no_commands();
    });
    graph.compile(requirements);
  }
};

bool same_bytes(const Placement& x, const Placement& y) {
  return x.block == y.block && x.offset < y.offset + y.requirement.size && y.offset < x.offset + x.requirement.size;
}

}  // namespace

TEST_CASE("transients with disjoint lifetimes share memory", "[graph][memory]") {
  PingPong g;
  const Placement* a = placement_of(g.graph, "blur.a");
  const Placement* b = placement_of(g.graph, "blur.b");
  const Placement* small = placement_of(g.graph, "blur.small");
  REQUIRE(a);
  REQUIRE(b);
  REQUIRE(small);
  CHECK(a->last_use < b->first_use);
  CHECK(same_bytes(*a, *b));
  // blur.small lives across both (written while a is read, read while b is written).
  CHECK_FALSE(same_bytes(*small, *a));
  CHECK_FALSE(same_bytes(*small, *b));
  const auto& compiled = g.graph.compiled();
  CHECK(compiled.memory_with_aliasing < compiled.memory_without_aliasing);
  CHECK(compiled.memory_without_aliasing == 64 * 64 * 4 * 2 + 8 * 8 * 4);
}

TEST_CASE("the first user of aliased memory waits for the previous occupant", "[graph][memory][barriers]") {
  PingPong g;
  const Barrier* b = barrier_before(g.graph, "blur.write_b", "blur.b");
  REQUIRE(b);
  CHECK(b->aliasing);
  CHECK(b->old_layout == VK_IMAGE_LAYOUT_UNDEFINED);
  // blur.a was written and sampled by compute: both must finish before blur.b is written.
  CHECK(b->src_stages == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  CHECK(b->src_access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
  const Barrier* first = barrier_before(g.graph, "blur.write_a", "blur.a");
  REQUIRE(first);
  CHECK_FALSE(first->aliasing);
}

TEST_CASE("overlapping lifetimes never share memory", "[graph][memory]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle color, depth;
  graph.add_pass("scene.draw", [&](PassBuilder& b) {
    color = b.write(b.create_image("scene.color", color_desc()), Access::ColorAttachmentWrite);
    depth = b.write(b.create_image("scene.depth", depth_desc()), Access::DepthAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("output.compose", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    b.read(depth, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Placement* c = placement_of(graph, "scene.color");
  const Placement* d = placement_of(graph, "scene.depth");
  REQUIRE(c);
  REQUIRE(d);
  CHECK_FALSE(same_bytes(*c, *d));
  CHECK(graph.compiled().memory_with_aliasing == graph.compiled().memory_without_aliasing);
}

TEST_CASE("incompatible memory types are never aliased", "[graph][memory]") {
  // blur.a may only live in type 0, blur.b only in type 1: same lifetimes as before, but the
  // placement must give them separate blocks.
  PingPong g([](uint32_t r, const ResourceNode& node, uint32_t usage) {
    MemoryRequirement req = fake_requirements(r, node, usage);
    req.memory_type_bits = node.name == "blur.a" ? 0x1u : node.name == "blur.b" ? 0x2u : 0x3u;
    return req;
  });
  const Placement* a = placement_of(g.graph, "blur.a");
  const Placement* b = placement_of(g.graph, "blur.b");
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->block != b->block);
  for (const Placement& p : g.graph.compiled().placements)
    CHECK((g.graph.compiled().blocks[p.block].memory_type_bits & p.requirement.memory_type_bits) != 0);
}

TEST_CASE("placements respect alignment", "[graph][memory]") {
  PingPong g([](uint32_t r, const ResourceNode& node, uint32_t usage) {
    MemoryRequirement req = fake_requirements(r, node, usage);
    req.size += 13;  // odd sizes force aligned offsets after the first occupant
    req.alignment = 4096;
    return req;
  });
  for (const Placement& p : g.graph.compiled().placements) CHECK(p.offset % 4096 == 0);
}

TEST_CASE("culled passes' transients take no memory", "[graph][memory]") {
  FrameGraph graph;
  graph.add_pass("debug.unused", [&](PassBuilder& b) {
    (void)b.write(b.create_image("debug.big", color_desc(1024)), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(graph.compiled().placements.empty());
  CHECK(graph.compiled().memory_with_aliasing == 0);
}

}  // namespace meniscus::graph

#include "engine/graph/alias_memory.h"

namespace meniscus::graph {
using namespace testing;

TEST_CASE("images and buffers never share a block", "[graph][memory]") {
  // Disjoint lifetimes, same memory types: only the kind keeps them apart (an image beside a
  // buffer would have to honour bufferImageGranularity, which the requirements do not carry).
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle image;
  BufferHandle small, buffer;
  graph.add_pass("a.image", [&](PassBuilder& b) {
    image = b.write(b.create_image("a.image", color_desc()), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("a.reduce", [&](PassBuilder& b) {
    b.read(image, Access::ComputeSample);
    small = b.write(b.create_buffer("a.small", {256}), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("a.buffer", [&](PassBuilder& b) {
    b.read(small, Access::ComputeStorageRead);
    buffer = b.write(b.create_buffer("a.buffer", {64 * 64 * 4}), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("a.compose", [&](PassBuilder& b) {
    b.read(buffer, Access::FragmentStorageRead);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const auto& compiled = graph.compiled();
  const Placement* i = placement_of(graph, "a.image");
  const Placement* b = placement_of(graph, "a.buffer");
  REQUIRE(i);
  REQUIRE(b);
  CHECK(i->block != b->block);
  CHECK(compiled.blocks[i->block].images);
  CHECK_FALSE(compiled.blocks[b->block].images);
  for (const Placement& p : compiled.placements)
    CHECK(compiled.blocks[p.block].images == (graph.resources()[p.resource].kind == ResourceKind::Image));
}

TEST_CASE("the third occupant of the same bytes waits for both earlier ones", "[graph][memory][barriers]") {
  // Three same-sized buffers in a chain, each only alive for two passes: 0 and 2 share
  // memory, and 1 and 3; the chain keeps each pair disjoint in time.
  FrameGraph graph;
  BufferHandle out = graph.import_buffer("output.result", {VK_NULL_HANDLE, 64, Access::None, Access::HostRead});
  BufferHandle prev;
  for (int i = 0; i < 4; ++i) {
    const std::string name = "chain.step" + std::to_string(i);
    graph.add_pass(name, [&, i](PassBuilder& b) {
      if (prev.valid()) b.read(prev, i % 2 ? Access::ComputeStorageRead : Access::VertexStorageRead);
      prev = b.write(b.create_buffer("chain.buf" + std::to_string(i), {1024}),
                     i % 2 ? Access::ComputeStorageWrite : Access::TransferDst);
      return no_commands();
    });
  }
  graph.add_pass("chain.result", [&](PassBuilder& b) {
    b.read(prev, Access::TransferSrc);
    out = b.write(out, Access::TransferDst);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const Placement* p0 = placement_of(graph, "chain.buf0");
  const Placement* p2 = placement_of(graph, "chain.buf2");
  REQUIRE(p0);
  REQUIRE(p2);
  CHECK(same_bytes(*p0, *p2));
  // buf1 is alive with buf0 and opens a second block, which buf3 then reuses.
  CHECK(graph.compiled().blocks.size() == 2);
  CHECK(graph.compiled().memory_with_aliasing == 2 * 1024);
  CHECK(graph.compiled().memory_without_aliasing == 4 * 1024);
  // buf2 is first written by a transfer in pass 2; buf0 was written by a transfer (pass 0)
  // and read by a compute shader (pass 1).
  const Barrier* b2 = barrier_before(graph, "chain.step2", "chain.buf2");
  REQUIRE(b2);
  CHECK(b2->aliasing);
  CHECK(b2->src_stages == (VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT));
  CHECK(b2->src_access == VK_ACCESS_2_TRANSFER_WRITE_BIT);
  CHECK(b2->dst_stages == VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
  CHECK(b2->dst_access == VK_ACCESS_2_TRANSFER_WRITE_BIT);
  // buf3 follows buf1 (compute write, vertex read): a buffer aliasing barrier.
  const Barrier* b3 = barrier_before(graph, "chain.step3", "chain.buf3");
  REQUIRE(b3);
  CHECK(b3->aliasing);
  CHECK_FALSE(b3->is_image);
  CHECK(b3->src_stages == (VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT));
  CHECK(b3->src_access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

TEST_CASE("placement: later resources pack into the bytes an earlier one has finished with", "[graph][memory]") {
  const MemoryRequirement big{4096, 256, ~0u}, half{2048, 256, ~0u};
  // big lives over [0, 1]; a and b, half its size each, both over [2, 3].
  MemoryPlan plan = place_transients({{0, big, 0, 1, true, 0}, {1, half, 2, 3, true, 0}, {2, half, 2, 3, true, 0}});
  REQUIRE(plan.placements.size() == 3);
  REQUIRE(plan.blocks.size() == 1);
  CHECK(plan.blocks[0].size == 4096);
  CHECK(plan.placements[0].offset == 0);
  CHECK(plan.placements[1].offset == 0);
  CHECK(plan.placements[2].offset == 2048);  // beside a, which is alive at the same time
  CHECK(plan.without_aliasing == 8192);
  CHECK(plan.with_aliasing == 4096);
  CHECK(previous_occupants(plan, plan.placements[0]).empty());
  for (uint32_t i : {1u, 2u}) {
    const auto before = previous_occupants(plan, plan.placements[i]);
    REQUIRE(before.size() == 1);
    CHECK(before[0]->resource == 0);
  }
}

TEST_CASE("placement: resources alive together never share bytes", "[graph][memory]") {
  const MemoryRequirement big{4096, 256, ~0u}, half{2048, 256, ~0u};
  // 1 lives all frame, so nothing else may use its bytes; 0 and 3 take turns.
  MemoryPlan plan = place_transients(
      {{0, big, 0, 1, true, 0}, {1, half, 0, 3, true, 0}, {2, half, 2, 3, true, 0}, {3, big, 2, 3, true, 0}});
  REQUIRE(plan.placements.size() == 4);
  CHECK(plan.placements[0].block == plan.placements[3].block);
  CHECK(plan.placements[0].offset == plan.placements[3].offset);
  for (const Placement& x : plan.placements)
    for (const Placement& y : plan.placements) {
      if (&x == &y) continue;
      const bool live_together = x.first_use <= y.last_use && y.first_use <= x.last_use;
      if (live_together) CHECK_FALSE(same_bytes(x, y));
    }
  // Peak use is at [2, 3]: 3, 1 and 2 together.
  CHECK(plan.with_aliasing == 4096 + 2048 + 2048);
  CHECK(plan.without_aliasing == 2 * 4096 + 2 * 2048);
}

TEST_CASE("placement: a resource that fits nowhere opens a block of its own size", "[graph][memory]") {
  MemoryPlan plan = place_transients({{0, {1000, 16, 0x1u}, 0, 5, false, 0}, {1, {3000, 16, 0x1u}, 0, 5, false, 0}});
  REQUIRE(plan.blocks.size() == 2);
  CHECK(plan.blocks[0].size == 3000);  // the largest comes first
  CHECK(plan.blocks[1].size == 1000);
  CHECK(plan.placements[0].block == 1);
  CHECK(plan.placements[1].block == 0);
  CHECK(plan.with_aliasing == plan.without_aliasing);
}

}  // namespace meniscus::graph
