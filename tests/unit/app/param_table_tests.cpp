// ParamTable: every getter's good path, and every bad value as one located message.
#include <catch2/catch.hpp>

#include <fstream>

#include "engine/app/param_table.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

ParamTable parse(const std::string& text) { return parse_toml(text, "t.toml"); }

// The message of the InputError `f` throws ("" when it throws none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("numbers: integers and floats, defaults only for absent keys", "[param_table]") {
  const ParamTable t = parse("a = 2\nb = 0.25\nbad = \"x\"\n");
  CHECK(t.number("a", 0.0) == 2.0);
  CHECK(t.number("b", 0.0, 0.0, 1.0) == 0.25);
  CHECK(t.number("absent", 7.5) == 7.5);
  CHECK(t.number("a") == 2.0);
  // A bad value never falls back to the default.
  CHECK_THAT(error_of([&] { t.number("bad", 1.0); }),
             Equals("t.toml:3:7: field 'bad': expected a finite number, got \"x\""));
  CHECK_THAT(error_of([&] { t.number("b", 1.0, 0.5, 1.0); }),
             Equals("t.toml:2:5: field 'b': expected a number in [0.5, 1], got 0.25"));
  CHECK_THAT(error_of([&] { t.number("missing"); }),
             Contains("field 'missing'") && Contains("got nothing (required field missing)"));
  CHECK_THAT(error_of([&] { t.required_number("missing", 0.0); }), Contains("expected a number >= 0"));
}

TEST_CASE("numbers: nan, inf and booleans are rejected", "[param_table]") {
  const ParamTable t = parse("n = nan\np = inf\nm = -inf\nflag = true\n");
  CHECK_THAT(error_of([&] { t.number("n", 1.0); }), Equals("t.toml:1:5: field 'n': expected a finite number, got nan"));
  CHECK_THAT(error_of([&] { t.number("p", 1.0, 0.0); }), Contains("t.toml:2:5:") && Contains("got inf"));
  CHECK_THAT(error_of([&] { t.number("m", 1.0); }), Contains("t.toml:3:5:") && Contains("got -inf"));
  CHECK_THAT(error_of([&] { t.number("flag", 1.0); }), Contains("t.toml:4:8:") && Contains("got true"));
}

TEST_CASE("integers: whole TOML integers in range only", "[param_table]") {
  const ParamTable t = parse("count = 20000\nneg = -5\nfloaty = 5.0\nhuge = 9223372036854775807\n");
  CHECK(t.integer("count", 1, 1, 10'000'000) == 20000);
  CHECK(t.integer("absent", 3, 1, 10) == 3);
  CHECK(t.integer("huge", 0, 0, INT64_MAX) == INT64_MAX);
  CHECK_THAT(error_of([&] { t.integer("neg", 1, 1, 10'000'000); }),
             Equals("t.toml:2:7: field 'neg': expected an integer in [1, 10000000], got -5"));
  CHECK_THAT(error_of([&] { t.integer("floaty", 1, 1, 10); }), Contains("expected an integer") && Contains("got 5.0"));
}

TEST_CASE("booleans and strings", "[param_table]") {
  const ParamTable t = parse("on = false\nword = 1\nmode = \"spin\"\nok = \"fly\"\n");
  CHECK_FALSE(t.boolean("on", true));
  CHECK(t.boolean("absent", true));
  CHECK(t.string("ok", "orbit", {"orbit", "fly"}) == "fly");
  CHECK(t.string("absent", "orbit", {"orbit", "fly"}) == "orbit");
  CHECK_THAT(error_of([&] { t.boolean("word", true); }), Contains("t.toml:2:8:") && Contains("expected true or false, got 1"));
  CHECK_THAT(error_of([&] { t.string("word", ""); }), Contains("expected a string, got 1"));
  CHECK_THAT(error_of([&] { t.string("mode", "orbit", {"orbit", "fly"}); }),
             Equals("t.toml:3:8: field 'mode': expected one of \"orbit\", \"fly\", got \"spin\""));
  CHECK_THAT(error_of([&] { t.required_string("name"); }), Contains("field 'name'") && Contains("required field missing"));
}

TEST_CASE("vectors, directions and colours", "[param_table]") {
  const ParamTable t = parse(
      "v = [1, 2.5, -3]\nshort = [1, 2]\nlong = [1, 2, 3, 4]\nnan_in = [0, nan, 1]\nwords = [\"a\", \"b\", \"c\"]\n"
      "scalar = 3\nd = [0, 2, 0]\nzero = [0, 0, 0]\nneg = [0.5, -0.1, 0]\n");
  CHECK(t.vec3("v", {}) == glm::vec3(1.0f, 2.5f, -3.0f));
  CHECK(t.vec3("absent", {1, 2, 3}) == glm::vec3(1, 2, 3));
  CHECK(t.direction("d", {1, 0, 0}) == glm::vec3(0, 1, 0));
  CHECK(glm::length(t.direction("absent", {1, 1, 0})) == Approx(1.0f));
  CHECK(t.color("v2", {0.5f, 0.5f, 0.5f}) == glm::vec3(0.5f));
  CHECK_THAT(error_of([&] { t.vec3("short", {}); }),
             Equals("t.toml:2:9: field 'short': expected an array of 3 finite numbers [x, y, z], got [1, 2]"));
  CHECK_THAT(error_of([&] { t.vec3("long", {}); }), Contains("t.toml:3:") && Contains("got [1, 2, 3, 4]"));
  CHECK_THAT(error_of([&] { t.vec3("nan_in", {}); }), Contains("t.toml:4:") && Contains("got [0, nan, 1]"));
  CHECK_THAT(error_of([&] { t.vec3("words", {}); }), Contains("got [\"a\", \"b\", \"c\"]"));
  CHECK_THAT(error_of([&] { t.vec3("scalar", {}); }), Contains("got 3"));
  CHECK_THAT(error_of([&] { t.direction("zero", {1, 0, 0}); }),
             Contains("t.toml:8:") && Contains("expected a non-zero direction, got [0.0, 0.0, 0.0]"));
  CHECK_THAT(error_of([&] { t.color("neg", {}); }), Contains("t.toml:9:") && Contains("components >= 0"));
}

TEST_CASE("sub-tables and arrays of tables carry their key paths", "[param_table]") {
  const ParamTable root = parse(
      "[camera]\nfov = 40\n\n[[stage]]\ntype = \"a\"\n[[stage]]\ntype = \"b\"\ncount = -1\n\n[pass.particles]\nradius = 0.1\n");
  const ParamTable camera = root.table("camera");
  CHECK(camera.path() == "camera");
  CHECK(camera.number("fov", 0.0) == 40.0);

  const std::vector<ParamTable> stages = root.array_of_tables("stage");
  REQUIRE(stages.size() == 2);
  CHECK(stages[1].path() == "stage[1]");
  CHECK(stages[1].required_string("type") == "b");
  CHECK_THAT(error_of([&] { stages[1].integer("count", 1, 1, 100); }),
             Equals("t.toml:8:9: field 'stage[1].count': expected an integer in [1, 100], got -1"));

  const ParamTable particles = root.table("pass").table("particles");
  CHECK(particles.path() == "pass.particles");
  CHECK(particles.number("radius", 0.0) == 0.1);

  // An absent table is an empty view whose errors still say where they belong.
  const ParamTable absent = root.table("environment");
  CHECK(absent.empty());
  CHECK(absent.number("x", 4.0) == 4.0);
  CHECK(root.array_of_tables("nothing").empty());
  CHECK_THAT(error_of([&] { absent.number("needed"); }), Contains("t.toml:") && Contains("field 'environment.needed'"));
  CHECK_NOTHROW(absent.finish());

  CHECK_THAT(error_of([&] { camera.table("fov"); }), Contains("field 'camera.fov': expected a table, got 40"));
  CHECK_THAT(error_of([&] { camera.array_of_tables("fov"); }), Contains("expected [[camera.fov]] tables, got 40"));
}

TEST_CASE("finish() names the first unknown key and suggests a close one", "[param_table]") {
  SECTION("a typo gets a suggestion") {
    const ParamTable t = parse("radius = 1\nradious = 2\n");
    t.number("radius", 0.0);
    CHECK_THAT(error_of([&] { t.finish(); }),
               Equals("t.toml:2:11: field 'radious': unknown field, did you mean 'radius'?"));
  }
  SECTION("no close match lists the known fields") {
    const ParamTable t = parse("zebra = 1\nradius = 1\ncolor = [1, 1, 1]\n");
    t.number("radius", 0.0);
    t.color("color", {});
    CHECK_THAT(error_of([&] { t.finish(); }),
               Contains("t.toml:1:9: field 'zebra'") && Contains("known fields here: color, radius"));
  }
  SECTION("the first unknown key in file order, not in key order") {
    const ParamTable t = parse("zz = 1\naa = 2\n");
    CHECK_THAT(error_of([&] { t.finish(); }), Contains("field 'zz'") && Contains("takes no settings"));
  }
  SECTION("copies and repeated views share what was consumed") {
    const ParamTable root = parse("[pass.particles]\nradius = 1\ncolor = [1, 1, 1]\n");
    const ParamTable a = root.table("pass").table("particles");
    const ParamTable b = root.table("pass").table("particles");
    const ParamTable c = a;
    a.number("radius", 0.0);
    c.color("color", {});
    CHECK_NOTHROW(b.finish());
    CHECK_NOTHROW(root.table("pass").finish());
    CHECK_NOTHROW(root.finish());
  }
  SECTION("has() and keys() consume nothing") {
    const ParamTable t = parse("x = 1\n");
    CHECK(t.has("x"));
    CHECK(t.keys() == std::vector<std::string>{"x"});
    CHECK_THAT(error_of([&] { t.finish(); }), Contains("field 'x': unknown field"));
  }
}

TEST_CASE("fail() locates cross-field errors", "[param_table]") {
  const ParamTable t = parse("[camera]\nnear = 2\nfar = 1\n");
  const ParamTable camera = t.table("camera");
  CHECK_THAT(error_of([&] { camera.fail("far", "must exceed near"); }), Equals("t.toml:3:7: field 'camera.far': must exceed near"));
  CHECK_THAT(error_of([&] { camera.fail("absent", "needed"); }), Contains("t.toml:1:1: field 'camera.absent'"));
}

TEST_CASE("parse errors and unreadable files", "[param_table]") {
  CHECK_THAT(error_of([] { parse("a = 1\nb = [1, 2\n"); }), Contains("t.toml:2:") && Contains("parsing array"));
  CHECK_THAT(error_of([] { parse("a = 1\na = 2\n"); }), Contains("t.toml:2:") && Contains("cannot redefine"));
  CHECK_THAT(error_of([] { parse_toml_file("/nonexistent/x.toml"); }), Equals("/nonexistent/x.toml: no such file"));
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-param-table-tests";
  std::filesystem::create_directories(dir);
  CHECK_THAT(error_of([&] { parse_toml_file(dir); }), Contains("not a regular file"));
  std::ofstream(dir / "ok.toml") << "x = 1\n";
  const ParamTable t = parse_toml_file(dir / "ok.toml");
  CHECK(t.file() == dir / "ok.toml");
  CHECK(t.integer("x", 0, 0, 5) == 1);
}

}  // namespace meniscus
