// Mistakes in a graph are errors that name the pass and the resource.
#include "tests/unit/graph/graph_fixture.h"

namespace meniscus::graph {
using namespace testing;
using Catch::Matchers::Contains;

TEST_CASE("reading a transient that nothing writes is an error", "[graph][errors]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  graph.add_pass("post.compose", [&](PassBuilder& b) {
    ImageHandle never = b.create_image("fluid.depth", color_desc());
    b.read(never, Access::FragmentSample);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  CHECK_THROWS_WITH(graph.compile(fake_requirements),
                    Contains("pass 'post.compose' reads 'fluid.depth' which no pass writes"));
}

TEST_CASE("a cycle through stale versions is detected and named", "[graph][errors]") {
  // A reads S.v1 and writes R (-> v2); B reads the old R.v1 and writes S (-> v2).
  // WAR forces A before B (A reads S.v1, B replaces it) and B before A (B reads R.v1).
  FrameGraph graph;
  BufferHandle r = graph.import_buffer("cycle.r", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  BufferHandle s = graph.import_buffer("cycle.s", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  const BufferHandle r_old = r;
  graph.add_pass("cycle.a", [&](PassBuilder& b) {
    b.read(s, Access::ComputeStorageRead);
    r = b.write(r, Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("cycle.b", [&](PassBuilder& b) {
    b.read(r_old, Access::ComputeStorageRead);
    s = b.write(s, Access::ComputeStorageWrite);
    return no_commands();
  });
  CHECK_THROWS_WITH(graph.compile(fake_requirements), Contains("dependency cycle") && Contains("cycle.a") && Contains("cycle.b"));
}

TEST_CASE("writing a stale version is an error", "[graph][errors]") {
  FrameGraph graph;
  BufferHandle r = graph.import_buffer("sim.state", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  const BufferHandle old = r;
  graph.add_pass("sim.first", [&](PassBuilder& b) {
    r = b.write(r, Access::ComputeStorageWrite);
    return no_commands();
  });
  CHECK_THROWS_WITH(graph.add_pass("sim.second",
                                   [&](PassBuilder& b) {
                                     (void)b.write(old, Access::ComputeStorageWrite);
                                     return no_commands();
                                   }),
                    Contains("pass 'sim.second' writes version 0 of 'sim.state'") && Contains("stale"));
}

TEST_CASE("writing the same resource twice in one pass is an error", "[graph][errors]") {
  FrameGraph graph;
  BufferHandle r = graph.import_buffer("sim.state", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  CHECK_THROWS_WITH(graph.add_pass("sim.twice",
                                   [&](PassBuilder& b) {
                                     BufferHandle v1 = b.write(r, Access::ComputeStorageWrite);
                                     (void)b.write(v1, Access::ComputeStorageWrite);
                                     return no_commands();
                                   }),
                    Contains("pass 'sim.twice' writes 'sim.state' twice"));
}

TEST_CASE("duplicate names, wrong access kinds and bad descriptions are errors", "[graph][errors]") {
  FrameGraph graph;
  graph.import_buffer("sim.state", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  CHECK_THROWS_WITH(graph.import_buffer("sim.state", {VK_NULL_HANDLE, 64, Access::None, Access::None}),
                    Contains("two resources are named 'sim.state'"));
  graph.add_pass("a.pass", [](PassBuilder& b) {
    b.side_effect();
    return no_commands();
  });
  CHECK_THROWS_WITH(graph.add_pass("a.pass", [](PassBuilder&) { return no_commands(); }),
                    Contains("two passes are named 'a.pass'"));
  ImageHandle image = graph.import_image("output.image", external_color(Access::None, Access::Present));
  CHECK_THROWS_WITH(graph.add_pass("b.pass",
                                   [&](PassBuilder& b) {
                                     b.read(image, Access::ColorAttachmentWrite);
                                     return no_commands();
                                   }),
                    Contains("pass 'b.pass' reads 'output.image' with ColorAttachmentWrite"));
  CHECK_THROWS_WITH(graph.add_pass("c.pass",
                                   [&](PassBuilder& b) {
                                     (void)b.create_image("c.empty", ImageDesc{});
                                     return no_commands();
                                   }),
                    Contains("pass 'c.pass' creates image 'c.empty' with no format or size"));
}

TEST_CASE("a pass cannot claim Present or None as an access", "[graph][errors]") {
  FrameGraph graph;
  ImageHandle image = graph.import_image("output.image", external_color(Access::None, Access::Present));
  CHECK_THROWS_WITH(graph.add_pass("bad.present",
                                   [&](PassBuilder& b) {
                                     b.read(image, Access::Present);
                                     return no_commands();
                                   }),
                    Contains("pass 'bad.present' declares access Present on 'output.image'"));
}

}  // namespace meniscus::graph

namespace meniscus::graph {
using namespace testing;
using Catch::Matchers::Contains;

TEST_CASE("a handle that names no resource is an error", "[graph][errors]") {
  FrameGraph graph;
  CHECK_THROWS_WITH(graph.add_pass("post.tonemap",
                                   [&](PassBuilder& b) {
                                     b.read(ImageHandle{}, Access::FragmentSample);
                                     return no_commands();
                                   }),
                    Contains("pass 'post.tonemap' uses a handle that names no resource (index unset)"));
  // A handle from another graph points past this graph's resources.
  FrameGraph other;
  other.import_buffer("a.one", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  const BufferHandle foreign = other.import_buffer("a.two", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  CHECK_THROWS_WITH(graph.add_pass("post.other",
                                   [&](PassBuilder& b) {
                                     (void)b.write(foreign, Access::ComputeStorageWrite);
                                     return no_commands();
                                   }),
                    Contains("pass 'post.other' uses a handle that names no resource (index 1)"));
  // An image handle used as a buffer.
  const ImageHandle image = graph.import_image("output.image", external_color(Access::None, Access::Present));
  CHECK_THROWS_WITH(graph.add_pass("post.kind",
                                   [&](PassBuilder& b) {
                                     b.read(BufferHandle{image.index, 0}, Access::ComputeStorageRead);
                                     return no_commands();
                                   }),
                    Contains("pass 'post.kind' uses 'output.image' as the wrong kind of resource"));
}

TEST_CASE("a version that does not exist yet is an error", "[graph][errors]") {
  FrameGraph graph;
  const BufferHandle r = graph.import_buffer("sim.state", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  CHECK_THROWS_WITH(graph.add_pass("sim.future",
                                   [&](PassBuilder& b) {
                                     b.read(BufferHandle{r.index, 3}, Access::ComputeStorageRead);
                                     return no_commands();
                                   }),
                    Contains("pass 'sim.future' uses version 3 of 'sim.state' which does not exist"));
}

TEST_CASE("the cycle error names the resources that tie the passes", "[graph][errors]") {
  FrameGraph graph;
  BufferHandle r = graph.import_buffer("cycle.r", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  BufferHandle s = graph.import_buffer("cycle.s", {VK_NULL_HANDLE, 64, Access::None, Access::None});
  const BufferHandle r_old = r;
  graph.add_pass("cycle.a", [&](PassBuilder& b) {
    b.read(s, Access::ComputeStorageRead);
    r = b.write(r, Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("cycle.b", [&](PassBuilder& b) {
    b.read(r_old, Access::ComputeStorageRead);
    s = b.write(s, Access::ComputeStorageWrite);
    return no_commands();
  });
  // A must wait for B (B reads the R that A replaces); B must wait for A (same with S).
  CHECK_THROWS_WITH(graph.compile(fake_requirements),
                    Contains("'cycle.a' waits for 'cycle.b' (on 'cycle.r')") &&
                        Contains("'cycle.b' waits for 'cycle.a' (on 'cycle.s')"));
}

TEST_CASE("a cycle among culled passes is no error but one among kept passes is", "[graph][errors]") {
  // The same stale-handle loop, but on transients nobody keeps: culling removes it first.
  FrameGraph graph;
  BufferHandle r, s;
  graph.add_pass("init.r", [&](PassBuilder& b) {
    r = b.write(b.create_buffer("loop.r", {64}), Access::ComputeStorageWrite);
    s = b.write(b.create_buffer("loop.s", {64}), Access::ComputeStorageWrite);
    return no_commands();
  });
  const BufferHandle r_old = r;
  graph.add_pass("loop.a", [&](PassBuilder& b) {
    b.read(s, Access::ComputeStorageRead);
    r = b.write(r, Access::ComputeStorageWrite);
    return no_commands();
  });
  graph.add_pass("loop.b", [&](PassBuilder& b) {
    b.read(r_old, Access::ComputeStorageRead);
    s = b.write(s, Access::ComputeStorageWrite);
    return no_commands();
  });
  CHECK_NOTHROW(graph.compile(fake_requirements));
  CHECK(culled_names(graph) == std::vector<std::string>{"init.r", "loop.a", "loop.b"});
  graph.add_pass("loop.keep", [&](PassBuilder& b) {
    b.read(r, Access::ComputeStorageRead);
    b.read(s, Access::ComputeStorageRead);
    b.side_effect();
    return no_commands();
  });
  CHECK_THROWS_WITH(graph.compile(fake_requirements), Contains("dependency cycle") && Contains("loop.a") &&
                                                          Contains("loop.b") && !Contains("loop.keep"));
}

TEST_CASE("one pass using a resource in two layouts is an error", "[graph][errors]") {
  FrameGraph graph;
  ImageHandle out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  ImageHandle color;
  graph.add_pass("scene.draw", [&](PassBuilder& b) {
    color = b.write(b.create_image("scene.color", color_desc()), Access::ColorAttachmentWrite);
    return no_commands();
  });
  graph.add_pass("post.mixed", [&](PassBuilder& b) {
    b.read(color, Access::FragmentSample);
    b.read(color, Access::ComputeStorageRead);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
  CHECK_THROWS_WITH(graph.compile(fake_requirements), Contains("pass 'post.mixed' uses 'scene.color' in two layouts"));
}

TEST_CASE("image descriptions need layers, mips, and six layers for a cube", "[graph][errors]") {
  FrameGraph graph;
  ImageDesc cube = color_desc();
  cube.cube = true;
  cube.layers = 4;
  CHECK_THROWS_WITH(graph.add_pass("sky.bake",
                                   [&](PassBuilder& b) {
                                     (void)b.create_image("sky.cube", cube);
                                     return no_commands();
                                   }),
                    Contains("pass 'sky.bake' creates image 'sky.cube' with 4 layers"));
  ImageDesc no_mips = color_desc();
  no_mips.mip_levels = 0;
  CHECK_THROWS_WITH(graph.add_pass("sky.mips",
                                   [&](PassBuilder& b) {
                                     (void)b.create_image("sky.mipped", no_mips);
                                     return no_commands();
                                   }),
                    Contains("pass 'sky.mips' creates image 'sky.mipped'") && Contains("0 mip levels"));
  CHECK_THROWS_WITH(graph.add_pass("sim.empty",
                                   [&](PassBuilder& b) {
                                     (void)b.create_buffer("sim.nothing", {0});
                                     return no_commands();
                                   }),
                    Contains("pass 'sim.empty' creates buffer 'sim.nothing' of size 0"));
}

}  // namespace meniscus::graph

namespace meniscus::graph {
using namespace testing;
using Catch::Matchers::Contains;

// The same passes added twice (one fluid chain per particle stage) collide unless each is
// added inside a name scope of its own.
void add_instance(FrameGraph& graph, ImageHandle& out) {
  graph.add_pass("fluid.depth", [&](PassBuilder& b) {
    (void)b.write(b.create_image("fluid.depth", color_desc()), Access::ColorAttachmentWrite);
    out = b.write(out, Access::ColorAttachmentWrite);
    return no_commands();
  });
}

TEST_CASE("two instances of a pass need name scopes", "[graph][errors][scopes]") {
  FrameGraph unscoped;
  ImageHandle out = unscoped.import_image("output.image", external_color(Access::None, Access::Present));
  add_instance(unscoped, out);
  CHECK_THROWS_WITH(add_instance(unscoped, out), Contains("two passes are named 'fluid.depth'"));

  FrameGraph graph;
  out = graph.import_image("output.image", external_color(Access::None, Access::Present));
  {
    NameScope scope(graph, "water");
    add_instance(graph, out);
  }
  {
    NameScope scope(graph, "oil");
    add_instance(graph, out);
  }
  REQUIRE(graph.passes().size() == 2);
  CHECK(graph.passes()[0].name == "water.fluid.depth");
  CHECK(graph.passes()[1].name == "oil.fluid.depth");
  CHECK(graph.resources()[0].name == "output.image");  // imported before any scope
  CHECK(graph.resources()[1].name == "water.fluid.depth");
  CHECK_NOTHROW(graph.compile(fake_requirements));
  CHECK_THROWS_WITH(graph.pop_scope(), Contains("without an open scope"));
}

}  // namespace meniscus::graph
