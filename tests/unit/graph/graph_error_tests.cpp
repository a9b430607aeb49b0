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
