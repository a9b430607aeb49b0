// Scene files: every mistake is one message with file, line and field.
#include <catch2/catch.hpp>

#include <fstream>

#include "engine/app/scene.h"
#include "engine/app/pass_settings.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

using Catch::Matchers::Contains;

std::filesystem::path write_scene(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-scene-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path;
}

std::string load_error(const std::string& name, const std::string& text) {
  const auto path = write_scene(name, text);
  try {
    // Stage and pass tables are read by their owners; check_scene_settings runs those readers.
    check_scene_settings(load_scene(path));
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the default scene loads", "[scene]") {
  const Scene scene = load_scene(std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes/particles.toml");
  CHECK(scene.name == "particles");
  CHECK(scene.render.width == 1280);
  CHECK(scene.camera.mode == "orbit");
  REQUIRE(scene.stages.size() == 1);
  CHECK(scene.stages[0].type == "ballistic");
  CHECK(glm::length(scene.environment.sun_direction) == Approx(1.0f));
  CHECK(read_particles_settings(scene).radius == Approx(0.03f));
}

TEST_CASE("the showcase default (tools/setup-and-run.sh) is a fluid in its tank through the curvature-flow chain",
          "[scene]") {
  std::ifstream script(std::filesystem::path(MENISCUS_SOURCE_DIR) / "tools/setup-and-run.sh");
  const std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  REQUIRE(text.find("scenes/dam_break.toml") != std::string::npos);
  const Scene scene = load_scene(std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes/dam_break.toml");
  const std::vector<StageFacts> stages = check_stages(scene);
  REQUIRE(stages.size() == 1);
  CHECK(stages[0].type == "sph");
  CHECK_FALSE(stages[0].solids.empty());  // the tank is drawn
  const auto fluid = read_fluid_settings(scene, stages);
  REQUIRE(fluid);
  CHECK(fluid->settings.filter == passes::FluidFilter::CurvatureFlow);
}

TEST_CASE("absent optional sections take documented defaults", "[scene]") {
  const Scene scene = load_scene(write_scene("minimal.toml", "name = \"minimal\"\n"));
  CHECK(scene.render.frames_in_flight == 2);
  CHECK(scene.camera.fov_y_degrees == Approx(45.0f));
  CHECK(scene.stages.empty());
}

TEST_CASE("an absent pass is an empty view that still names the file", "[scene]") {
  const Scene scene = load_scene(write_scene("nopass.toml", "name = \"x\"\n"));
  const ParamTable surface = scene.pass("surface");
  CHECK(surface.empty());
  CHECK(surface.number("size", 2.0) == 2.0);
  CHECK_THROWS_WITH(surface.number("iso"), Contains("nopass.toml:") && Contains("field 'pass.surface.iso'"));
}

TEST_CASE("bad scene files name the file, the line and the field", "[scene][errors]") {
  SECTION("NaN") {
    const std::string e = load_error("nan.toml", "name = \"x\"\n[camera]\ndistance = nan\n");
    CHECK_THAT(e, Contains("nan.toml:3:") && Contains("field 'camera.distance'") && Contains("got nan"));
  }
  SECTION("out of range") {
    const std::string e = load_error("range.toml", "name = \"x\"\n[render]\nwidth = 8\n");
    CHECK_THAT(e, Contains("range.toml:3:") && Contains("field 'render.width'") && Contains("[16, 16384]") &&
                      Contains("got 8"));
  }
  SECTION("negative count in a stage") {
    // Stage tables are read by the stage factory; load_scene keeps them for it.
    const Scene scene = load_scene(write_scene("count.toml", "name = \"x\"\n[[stage]]\ntype = \"ballistic\"\ncount = -5\n"));
    REQUIRE(scene.stages.size() == 1);
    CHECK_THROWS_WITH(scene.stages[0].params.integer("count", 1, 1, 10'000'000),
                      Contains("count.toml:4:") && Contains("field 'stage[0].count'") && Contains("got -5"));
  }
  SECTION("wrong type") {
    const std::string e = load_error("type.toml", "name = \"x\"\n[environment]\nground = \"yes\"\n");
    CHECK_THAT(e, Contains("type.toml:3:") && Contains("field 'environment.ground'") && Contains("true or false"));
  }
  SECTION("wrong vector length") {
    const std::string e = load_error("vec.toml", "name = \"x\"\n[camera]\ntarget = [1, 2]\n");
    CHECK_THAT(e, Contains("vec.toml:3:") && Contains("field 'camera.target'") &&
                      Contains("array of 3 finite numbers") && Contains("got [1, 2]"));
  }
  SECTION("zero direction") {
    const std::string e = load_error("dir.toml", "name = \"x\"\n[environment]\nsun_direction = [0, 0, 0]\n");
    CHECK_THAT(e, Contains("field 'environment.sun_direction'") && Contains("non-zero"));
  }
  SECTION("unknown key with a suggestion") {
    const std::string e = load_error("unknown.toml", "name = \"x\"\n[camera]\nfov_y_degree = 40\n");
    CHECK_THAT(e, Contains("unknown.toml:3:") && Contains("field 'camera.fov_y_degree'") && Contains("unknown field") &&
                      Contains("did you mean 'fov_y_degrees'"));
  }
  SECTION("unknown pass setting") {
    const std::string e = load_error("pass.toml", "name = \"x\"\n[pass.particles]\nradious = 0.1\n");
    CHECK_THAT(e, Contains("pass.toml:3:") && Contains("field 'pass.particles.radious'") && Contains("did you mean 'radius'"));
  }
  SECTION("missing name") {
    const std::string e = load_error("noname.toml", "[render]\nwidth = 64\n");
    CHECK_THAT(e, Contains("noname.toml:1:1:") && Contains("field 'name'") && Contains("required field missing"));
  }
  SECTION("far not beyond near") {
    const std::string e = load_error("planes.toml", "name = \"x\"\n[camera]\nnear = 2.0\nfar = 1.0\n");
    CHECK_THAT(e, Contains("planes.toml:4:") && Contains("field 'camera.far'") && Contains("greater than near"));
  }
  SECTION("TOML syntax error") {
    const std::string e = load_error("syntax.toml", "name = \"x\"\n[camera\n");
    CHECK_THAT(e, Contains("syntax.toml:2:") && Contains("expected"));
  }
  SECTION("unknown top-level key") {
    const std::string e = load_error("top.toml", "name = \"x\"\ndescriptoin = \"y\"\n");
    CHECK_THAT(e, Contains("top.toml:2:") && Contains("field 'descriptoin'") && Contains("did you mean 'description'"));
  }
  SECTION("stage without a type") {
    const std::string e = load_error("notype.toml", "name = \"x\"\n[[stage]]\ncount = 5\n");
    CHECK_THAT(e, Contains("notype.toml:2:") && Contains("field 'stage[0].type'") && Contains("required field missing"));
  }
  SECTION("stage is not an array of tables") {
    const std::string e = load_error("stage.toml", "name = \"x\"\nstage = 3\n");
    CHECK_THAT(e, Contains("stage.toml:2:") && Contains("field 'stage'") && Contains("got 3"));
  }
  SECTION("a pass that is not a table") {
    const std::string e = load_error("passval.toml", "name = \"x\"\n[pass]\nparticles = 1\n");
    CHECK_THAT(e, Contains("passval.toml:3:") && Contains("field 'pass.particles'") && Contains("expected a table"));
  }
  SECTION("frames in flight out of range") {
    const std::string e = load_error("fif.toml", "name = \"x\"\n[render]\nframes_in_flight = 0\n");
    CHECK_THAT(e, Contains("fif.toml:3:") && Contains("field 'render.frames_in_flight'") && Contains("[1, 4]") &&
                      Contains("got 0"));
  }
  SECTION("missing file") {
    CHECK_THROWS_WITH(load_scene("/nonexistent/scene.toml"), Contains("/nonexistent/scene.toml: no such file"));
  }
  SECTION("unknown mode") {
    const std::string e = load_error("mode.toml", "name = \"x\"\n[camera]\nmode = \"spin\"\n");
    CHECK_THAT(e, Contains("field 'camera.mode'") && Contains("\"orbit\", \"fly\"") && Contains("\"spin\""));
  }
}

}  // namespace meniscus
