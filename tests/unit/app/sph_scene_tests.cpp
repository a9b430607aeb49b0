// The "sph" stage table: every mistake is one message naming the file, the line and the field,
// and the shipped SPH scenes read cleanly.
#include <catch2/catch.hpp>

#include <fstream>

#include "engine/app/scene.h"
#include "engine/app/pass_settings.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

using Catch::Matchers::Contains;

std::string sph_error(const std::string& name, const std::string& stage_body) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-sph-scene-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << "name = \"x\"\n[[stage]]\ntype = \"sph\"\ndomain_min = [0, 0, 0]\ndomain_max = [1, 1, 1]\n"
                      << stage_body;
  try {
    check_scene_settings(load_scene(path));
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the SPH and level-set scenes read cleanly", "[scene][sph]") {
  for (const char* file : {"scenes/dam_break.toml", "scenes/waterfall.toml", "scenes/drop.toml", "scenes/lucy_collapse.toml",
                           "scenes/reconstruct_bunny.toml", "scenes/enright.toml", "scenes/sculpt_lucy.toml",
                           "scenes/segment_head.toml", "scenes/segment_brain.toml"}) {
    INFO(file);
    CHECK_NOTHROW(check_scene_settings(load_scene(file)));
  }
}

TEST_CASE("bad sph stage tables name the file, the line and the field", "[scene][sph][errors]") {
  SECTION("NaN viscosity") {
    const std::string e = sph_error("nan.toml", "viscosity = nan\n[[stage.fill]]\nmin = [0, 0, 0]\nmax = [0.2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("nan.toml:6:") && Contains("field 'stage[0].viscosity'") && Contains("got nan"));
  }
  SECTION("a particle volume far from a lattice cell's") {
    const std::string e =
        sph_error("volume.toml", "particle_volume = 0.3\n[[stage.fill]]\nmin = [0, 0, 0]\nmax = [0.2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("volume.toml:6:") && Contains("field 'stage[0].particle_volume'") && Contains("[0.5, 1.5]"));
  }
  SECTION("negative capacity") {
    const std::string e = sph_error("capacity.toml", "capacity = -5\n[[stage.fill]]\nmin = [0, 0, 0]\nmax = [0.2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("capacity.toml:6:") && Contains("field 'stage[0].capacity'") && Contains("got -5"));
  }
  SECTION("fill outside the domain") {
    const std::string e = sph_error("outside.toml", "[[stage.fill]]\nmin = [0, 0, 0]\nmax = [2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("outside.toml:") && Contains("stage[0]") && Contains("sph.fill[0].box") &&
                      Contains("outside the domain"));
  }
  SECTION("a fill's max below its min") {
    const std::string e = sph_error("inverted.toml", "[[stage.fill]]\nmin = [0.5, 0, 0]\nmax = [0.2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("inverted.toml:") && Contains("stage[0].fill[0].max") && Contains("exceed min"));
  }
  SECTION("emitter without speed") {
    const std::string e = sph_error("emitter.toml", "capacity = 1000\n[[stage.emitter]]\ncenter = [0.5, 0.5, 0.5]\nradius = 0.1\n");
    CHECK_THAT(e, Contains("emitter.toml:") && Contains("stage[0].emitter[0].speed") && Contains("required"));
  }
  SECTION("misspelt key") {
    const std::string e = sph_error("typo.toml", "viscosty = 0.1\n[[stage.fill]]\nmin = [0, 0, 0]\nmax = [0.2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("typo.toml:6:") && Contains("stage[0].viscosty") && Contains("did you mean 'viscosity'"));
  }
  SECTION("no fluid") {
    const std::string e = sph_error("empty.toml", "");
    CHECK_THAT(e, Contains("empty.toml:") && Contains("no fluid"));
  }
  SECTION("a levelset stage with both a mesh and points") {
    const auto dir = std::filesystem::temp_directory_path() / "meniscus-sph-scene-tests";
    const auto path = dir / "both.toml";
    std::ofstream(path) << "name = \"x\"\n[[stage]]\ntype = \"levelset\"\nmesh = \"a.ply\"\npoints = \"b.ply\"\n";
    CHECK_THROWS_WITH(check_scene_settings(load_scene(path)), Contains("both.toml:") && Contains("exactly one of mesh"));
  }
  SECTION("unknown time step mode") {
    const std::string e = sph_error("mode.toml", "time_step = \"sometimes\"\n[[stage.fill]]\nmin = [0, 0, 0]\nmax = [0.2, 0.2, 0.2]\n");
    CHECK_THAT(e, Contains("mode.toml:6:") && Contains("stage[0].time_step") && Contains("adaptive"));
  }
}

}  // namespace meniscus
