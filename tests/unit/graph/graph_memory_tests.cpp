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
