// The command line: good parses, and one clear error per bad flag.
#include <catch2/catch.hpp>

#include <vector>

#include "engine/app/cli.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

using Catch::Matchers::Contains;

Command parse_args(std::vector<const char*> args) {
  args.insert(args.begin(), "meniscus");
  return parse_cli(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("capture flags parse", "[cli]") {
  const Command c = parse_args({"capture", "scenes/particles.toml", "--size", "320x200", "--frames", "120", "--warmup",
                                "20", "--timings", "t.json", "--timings", "t.trace.json", "--png", "x.png", "--sim",
                                "cpu", "--validation", "--dump-graph", "g.dot"});
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
  const Command r = parse_args({"run", "scenes/particles.toml", "--frames", "20"});
  CHECK(r.verb == Verb::Run);
  CHECK(*r.run.frames == 20);
  CHECK(parse_args({}).verb == Verb::Help);
  CHECK(parse_args({"--help"}).verb == Verb::Help);
  CHECK(parse_args({"--version"}).verb == Verb::Version);
  CHECK_THAT(usage_text(), Contains("meniscus capture"));
}

TEST_CASE("bad flags are errors naming the flag and the value", "[cli][errors]") {
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--size", "12x"}), Contains("--size") && Contains("'12x'"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--size", "8x8"}), Contains("--size"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--frames", "abc"}), Contains("--frames") && Contains("'abc'"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--frames", "0"}), Contains("--frames") && Contains("in [1, "));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--frames", "-3"}), Contains("--frames"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--timings", "t.txt"}),
                    Contains("--timings") && Contains("'t.txt'"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--sim", "gpu"}), Contains("--sim") && Contains("'gpu'"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--frobnicate"}), Contains("unknown flag '--frobnicate'"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--png"}), Contains("--png: missing value"));
  CHECK_THROWS_WITH(parse_args({"capture"}), Contains("missing scene file"));
  CHECK_THROWS_WITH(parse_args({"capture", "--frames", "3"}), Contains("expected a scene file"));
  CHECK_THROWS_WITH(parse_args({"explode"}), Contains("unknown command 'explode'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--warmup", "3"}), Contains("unknown flag '--warmup'"));
}

TEST_CASE("defaults, repeated timings and every help spelling", "[cli]") {
  const Command r = parse_args({"run", "scenes/particles.toml"});
  CHECK_FALSE(r.run.frames.has_value());  // until the window closes
  CHECK_FALSE(r.run.width.has_value());
  CHECK(r.run.sim == "auto");
  const Command c = parse_args({"capture", "scenes/particles.toml", "--device", "llvmpipe", "--no-validation"});
  CHECK(c.capture.frames == 1);
  CHECK(c.capture.warmup == 0);
  CHECK(c.capture.device == "llvmpipe");
  CHECK_FALSE(c.capture.validation);
  CHECK(*c.capture.png == std::filesystem::path("out") / "particles.png");
  const Command t =
      parse_args({"capture", "s.toml", "--timings", "a.csv", "--timings", "b.trace.json", "--timings", "c.json"});
  CHECK(t.capture.timings == std::vector<std::filesystem::path>{"a.csv", "b.trace.json", "c.json"});
  CHECK_FALSE(t.capture.png.has_value());  // timings alone write no image
  CHECK(parse_args({"help"}).verb == Verb::Help);
  CHECK(parse_args({"-h"}).verb == Verb::Help);
  CHECK(parse_args({"version"}).verb == Verb::Version);
  const Command big = parse_args({"run", "s.toml", "--size", "16384x16"});
  CHECK(*big.run.width == 16384);
  CHECK(*big.run.height == 16);
}

TEST_CASE("more bad flags, each naming the flag and the value", "[cli][errors]") {
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--size", "16385x16"}), Contains("--size") && Contains("'16385x16'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--size", "1280*720"}),
                    Contains("--size: expected WxH like 1280x720"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--size", "x720"}), Contains("'x720'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--frames", "0"}), Contains("--frames") && Contains("'0'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--frames", "+5"}), Contains("--frames") && Contains("'+5'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--timings", ".json"}), Contains("--timings") && Contains("'.json'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--timings", "t.trace"}),
                    Contains("--timings") && Contains("'t.trace'"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--timings"}), Contains("--timings: missing value"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--warmup", "-1"}), Contains("--warmup") && Contains("'-1'"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--device"}), Contains("--device: missing value"));
  CHECK_THROWS_WITH(parse_args({"capture", "s.toml", "--frame", "3"}),
                    Contains("unknown flag '--frame'") && Contains("did you mean '--frames'"));
  CHECK_THROWS_WITH(parse_args({"run"}), Contains("meniscus run: missing scene file"));
  CHECK_THROWS_WITH(parse_args({"run", "s.toml", "--png", "x.png"}), Contains("meniscus run: unknown flag '--png'"));
}

TEST_CASE("counts beyond what their option holds are errors, never wrapped values", "[cli][errors]") {
  // 3000000000 fits the parser's uint32_t but not the int a depth is kept in.
  CHECK_THROWS_WITH(parse_args({"reconstruct", "p.ply", "-o", "o.ply", "--start-depth", "3000000000"}),
                    Contains("--start-depth: expected an integer in [2, 13]") && Contains("'3000000000'"));
  CHECK_THROWS_WITH(parse_args({"reconstruct", "p.ply", "-o", "o.ply", "--depth", "14"}),
                    Contains("--depth") && Contains("'14'"));
  CHECK(parse_args({"reconstruct", "p.ply", "-o", "o.ply", "--depth", "13"}).reconstruct.depth == 13);
  CHECK_THROWS_WITH(parse_args({"levelset", "m.ply", "-o", "o.vdb", "--steps", "1", "--resolution", "8193"}),
                    Contains("--resolution") && Contains("'8193'"));
  CHECK_THROWS_WITH(parse_args({"wavelet", "v.vtk", "--wavelet", "haar", "--levels", "4294967297"}),
                    Contains("--levels") && Contains("'4294967297'"));
  CHECK_THROWS_WITH(parse_args({"mesh", "cayley:32", "-o", "m.ply", "--iso", "1e40"}),
                    Contains("--iso") && Contains("'1e40'"));
  CHECK_THROWS_WITH(parse_args({"segment", "v.nii", "--seed", "1,2,nan"}), Contains("--seed") && Contains("'1,2,nan'"));
  CHECK(parse_args({"capture", "s.toml", "--frames", "100000000"}).capture.frames == 100000000u);
}

}  // namespace meniscus
