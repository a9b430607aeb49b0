// The command line: good parses, and one clear error per bad flag.
#include <catch2/catch.hpp>

#include <vector>

#include "engine/app/cli.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

using Catch::Matchers::Contains;

Command parse(std::vector<const char*> args) {
  args.insert(args.begin(), "meniscus");
  return parse_cli(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("capture flags parse", "[cli]") {
  const Command c = parse({"capture", "scenes/particles.toml", "--size", "320x200", "--frames", "120", "--warmup", "20",
                           "--timings", "t.json", "--timings", "t.trace.json", "--png", "x.png", "--sim", "cpu",
                           "--validation", "--dump-graph", "g.dot"});
  REQUIRE(c.verb == Verb::Capture);
  CHECK(c.capture.scene == "scenes/particles.toml");
  CHECK(*c.capture.width == 320);
  CHECK(*c.capture.height == 200);
  CHECK(c.capture.frames == 120);
  CHECK(c.capture.warmup == 20);
  CHECK(c.capture.timings.size() == 2);
  CHECK(*c.capture.png == "x.png");
  CHECK(c.capture.sim == "cpu");
  CHECK(c.capture.validation);
  CHECK(*c.capture.dump_graph == "g.dot");
}

TEST_CASE("run flags parse, and help and version are verbs", "[cli]") {
  const Command r = parse({"run", "scenes/particles.toml", "--frames", "20"});
  CHECK(r.verb == Verb::Run);
  CHECK(*r.run.frames == 20);
  CHECK(parse({}).verb == Verb::Help);
  CHECK(parse({"--help"}).verb == Verb::Help);
  CHECK(parse({"--version"}).verb == Verb::Version);
  CHECK_THAT(usage_text(), Contains("meniscus capture"));
}

TEST_CASE("bad flags are errors naming the flag and the value", "[cli][errors]") {
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--size", "12x"}), Contains("--size") && Contains("'12x'"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--size", "8x8"}), Contains("--size"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--frames", "abc"}), Contains("--frames") && Contains("'abc'"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--frames", "0"}), Contains("--frames") && Contains(">= 1"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--frames", "-3"}), Contains("--frames"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--timings", "t.txt"}), Contains("--timings") && Contains("'t.txt'"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--sim", "gpu"}), Contains("--sim") && Contains("'gpu'"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--frobnicate"}), Contains("unknown flag '--frobnicate'"));
  CHECK_THROWS_WITH(parse({"capture", "s.toml", "--png"}), Contains("--png: missing value"));
  CHECK_THROWS_WITH(parse({"capture"}), Contains("missing scene file"));
  CHECK_THROWS_WITH(parse({"capture", "--frames", "3"}), Contains("expected a scene file"));
  CHECK_THROWS_WITH(parse({"explode"}), Contains("unknown command 'explode'"));
  CHECK_THROWS_WITH(parse({"run", "s.toml", "--warmup", "3"}), Contains("unknown flag '--warmup'"));
}

}  // namespace meniscus
