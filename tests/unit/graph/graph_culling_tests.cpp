// Culling and ordering.
#include "tests/unit/graph/graph_fixture.h"

namespace meniscus::graph {
using namespace testing;

TEST_CASE("a pass whose output nobody reads is culled", "[graph][culling]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle color;
  graph.add_pass("scene.draw", [&](PassBuilder& b) {
    color = b.write(b.create_image("scene.color", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("debug.unused", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    (void)b.write(b.create_image("debug.view", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("output.blit", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(order_names(graph) == std::vector<std::string>{"scene.draw", "output.blit"});
  CHECK(culled_names(graph) == std::vector<std::string>{"debug.unused"});
}

TEST_CASE("culling is transitive: a chain feeding only a culled pass goes too", "[graph][culling]") {
  FrameGraph graph;
  ImageHandle a, b2;
  graph.add_pass("chain.first", [&](PassBuilder& b) {
    a = b.write(b.create_image("chain.a", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("chain.second", [&](PassBuilder& b) {
    b.read(a, Access::FragmentSample);
    b2 = b.write(b.create_image("chain.b", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(order_names(graph).empty());
  CHECK(culled_names(graph) == std::vector<std::string>{"chain.first", "chain.second"});
}

TEST_CASE("side-effect passes and writers of imported resources are kept", "[graph][culling]") {
  FrameGraph graph;
  BufferHandle readback = graph.import_buffer("output.readback", {VK_NULL_HANDLE, 1024, Access::None, Access::HostRead});
  graph.add_pass("debug.print", [&](PassBuilder& b) {
    b.side_effect();
    (void)b.write(b.create_buffer("debug.counters", {64}), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("output.copy", [&](PassBuilder& b) {
    readback = b.write(readback, Access::TransferDst);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(order_names(graph) == std::vector<std::string>{"debug.print", "output.copy"});
  CHECK(culled_names(graph).empty());
}

TEST_CASE("order follows dependencies, not declaration, and is stable otherwise", "[graph][ordering]") {
  // Declared: consumer-independent work first, then a producer that a later pass reads
  // through a version declared after a write-after-read.
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle shared;
  graph.add_pass("a.produce", [&](PassBuilder& b) {
    shared = b.write(b.create_image("a.shared", color_desc()), Access::ComputeStorageWrite);
    return no_commands();
  });
  ImageHandle old_version = shared;
  graph.add_pass("b.overwrite", [&](PassBuilder& b) {
    shared = b.write(shared, Access::ComputeStorageWrite);
    return no_commands();
  });
  // Declared after the overwrite but reads the version before it: must run before b.overwrite.
  ImageHandle side;
  graph.add_pass("c.read_old", [&](PassBuilder& b) {
    b.read(old_version, Access::ComputeStorageRead);
    side = b.write(b.create_image("c.side", color_desc()), Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("d.combine", [&](PassBuilder& b) {
    b.read(shared, Access::FragmentSample);
    b.read(side, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  CHECK(order_names(graph) == std::vector<std::string>{"a.produce", "c.read_old", "b.overwrite", "d.combine"});
}

TEST_CASE("independent passes keep their declaration order", "[graph][ordering]") {
  FrameGraph graph;
  for (const char* name : {"z.first", "a.second", "m.third"}) {
    graph.add_pass(name, [&](PassBuilder& b) {
      b.side_effect();
      return no_commands();
    });
  }
  graph.compile(fake_requirements);
  CHECK(order_names(graph) == std::vector<std::string>{"z.first", "a.second", "m.third"});
}

TEST_CASE("the dot dump shows passes, versions, barriers and culled passes", "[graph][dot]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  graph.add_pass("scene.unused", [&](PassBuilder& b) {
    (void)b.write(b.create_image("scene.scratch", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("output.clear", [&](PassBuilder& b) {
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.compile(fake_requirements);
  const std::string dot = graph.to_dot();
  CHECK(dot.find("digraph frame_graph") != std::string::npos);
  CHECK(dot.find("label=\"output.clear\"") != std::string::npos);
  CHECK(dot.find("scene.unused (culled)") != std::string::npos);
  CHECK(dot.find("output.image v1") != std::string::npos);
  CHECK(dot.find("UNDEFINED→COLOR_ATTACHMENT") != std::string::npos);
  CHECK(dot.find("leaves as Present") != std::string::npos);
  CHECK(dot.find("COLOR_ATTACHMENT→PRESENT_SRC") != std::string::npos);
  // Culled work is drawn but its transient is not counted.
  CHECK(dot.find("1 passes, 1 culled") != std::string::npos);
  // Before compile nothing is culled or transitioned yet; the dump says so by omission.
  FrameGraph fresh;
  fresh.add_pass("a.only", [](PassBuilder& b) {
    b.side_effect();
    return no_commands();
  });
  CHECK(fresh.to_dot().find("(culled)") == std::string::npos);
}

}  // namespace meniscus::graph
