// Scenes whose stages feed each other and whose passes name stages: a name that does not
// exist, a stage of the wrong kind, a producer listed after its consumer and duplicate names
// are each one message naming the file, the line and the field — before any device opens.
#include <catch2/catch.hpp>

#include <fstream>

#include "engine/app/pass_settings.h"
#include "engine/app/scene.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

using Catch::Matchers::Contains;

constexpr const char* kWater =
    "[[stage]]\ntype = \"sph\"\nname = \"water\"\nparticle_radius = 0.01\ndomain_min = [0, 0, 0]\n"
    "domain_max = [1, 1, 1]\n[[stage.fill]]\nmin = [0, 0, 0]\nmax = [0.2, 0.2, 0.2]\n";
constexpr const char* kSurface = "[[stage]]\ntype = \"levelset\"\nname = \"surface\"\nparticles = \"water\"\n";
constexpr const char* kFountain = "[[stage]]\ntype = \"ballistic\"\nname = \"fountain\"\n";

std::string scene_error(const std::string& name, const std::string& body) {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-stage-graph-tests";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << "name = \"x\"\n" << body;
  try {
    check_scene_settings(load_scene(path));
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("stages feeding each other and passes naming stages read cleanly", "[scene][stages]") {
  CHECK(scene_error("good.toml", std::string(kWater) + kSurface + kFountain +
                                     "[pass.fluid]\nstage = \"water\"\n[pass.surface]\nvolume = \"stage:surface\"\n"
                                     "[[pass.surface.layer]]\nname = \"w\"\niso = 0.0\n"
                                     "[pass.split]\nleft = \"water\"\nright = \"surface\"\n") == "");
  CHECK_NOTHROW(check_scene_settings(load_scene("scenes/two_surfaces.toml")));
}

TEST_CASE("bad stage references name the file, the line and the field", "[scene][stages][errors]") {
  SECTION("a consumer naming no stage") {
    const std::string e = scene_error("missing.toml", std::string(kWater) +
                                                          "[[stage]]\ntype = \"levelset\"\nparticles = \"oil\"\n");
    CHECK_THAT(e, Contains("missing.toml:13:") && Contains("field 'stage[1].particles'") &&
                      Contains("no stage is named \"oil\"") && Contains("\"water\""));
  }
  SECTION("a consumer naming a stage of the wrong kind") {
    const std::string e = scene_error("kind.toml", std::string(kWater) + kSurface +
                                                       "[[stage]]\ntype = \"levelset\"\nname = \"again\"\nparticles = \"surface\"\n");
    CHECK_THAT(e, Contains("kind.toml:") && Contains("field 'stage[2].particles'") &&
                      Contains("outputs level set, not particles"));
  }
  SECTION("a consumer listed before its producer") {
    const std::string e = scene_error("order.toml", std::string(kSurface) + kWater);
    CHECK_THAT(e, Contains("order.toml:5:") && Contains("field 'stage[0].particles'") && Contains("comes after"));
  }
  SECTION("a producer without a domain") {
    const std::string e = scene_error("nodomain.toml", std::string(kFountain) +
                                                           "[[stage]]\ntype = \"levelset\"\nparticles = \"fountain\"\n");
    CHECK_THAT(e, Contains("nodomain.toml:") && Contains("stage[1].particles") && Contains("no bounded domain"));
  }
  SECTION("two stages with one name") {
    const std::string e = scene_error("twice.toml", std::string(kWater) + kWater);
    CHECK_THAT(e, Contains("twice.toml:") && Contains("stage[1].name") && Contains("two stages are named \"water\""));
  }
  SECTION("two stages of one type without names") {
    const std::string e = scene_error("unnamed.toml", "[[stage]]\ntype = \"ballistic\"\n[[stage]]\ntype = \"ballistic\"\n");
    CHECK_THAT(e, Contains("unnamed.toml:") && Contains("two stages are named \"ballistic\""));
  }
  SECTION("a surface drawing particles") {
    const std::string e = scene_error("surface.toml", std::string(kWater) +
                                                          "[pass.surface]\nvolume = \"stage:water\"\n[[pass.surface.layer]]\nname = \"w\"\niso = 0.0\n");
    CHECK_THAT(e, Contains("surface.toml:") && Contains("pass.surface.volume") && Contains("outputs particles, not level set"));
  }
  SECTION("a fluid chain for a stage that does not exist") {
    const std::string e = scene_error("fluid.toml", std::string(kWater) + "[pass.fluid]\nstage = \"waterr\"\n");
    CHECK_THAT(e, Contains("fluid.toml:") && Contains("pass.fluid.stage") && Contains("no stage is named \"waterr\""));
  }
  SECTION("a split naming one stage twice") {
    const std::string e = scene_error("split.toml", std::string(kWater) + "[pass.split]\nleft = \"water\"\nright = \"water\"\n");
    CHECK_THAT(e, Contains("split.toml:") && Contains("pass.split.right") && Contains("same stage"));
  }
}

}  // namespace meniscus
