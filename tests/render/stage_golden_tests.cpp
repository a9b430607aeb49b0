// Headless goldens of scenes whose stages compose: one fluid drawn twice (the screen-space
// chain beside the level set built from the same particles, split in one frame), and a scene
// with two particle stages, each drawn by its own instance of a pass. The CPU backend is
// bit-identical for any thread count, so each image is a function of the scene alone.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "engine/app/capture.h"
#include "tests/render/image_compare.h"
#include "tests/render/scene_variant.h"

namespace meniscus {
namespace {

// The small dam break's stage is named "sph" (its type); these tables add to it.
constexpr const char* kTwoSurfaces = R"(
[[stage]]
type = "levelset"
name = "surface"
particles = "sph"
mcf = 0.08
steps_per_frame = 1

[pass.split]
left = "sph"
right = "surface"
divider = 0.45

[pass.fluid]
stage = "sph"
radius = 0.008
absorption = [30.0, 12.0, 5.0]

[pass.surface]
volume = "stage:surface"

[[pass.surface.layer]]
name = "water"
iso = 0.0
color = [0.25, 0.5, 0.75]
)";

constexpr const char* kTwoStages = R"(
[[stage]]
type = "ballistic"
name = "fountain"
count = 400
seed = 3
emitter_center = [0.45, 0.0, 0.05]
emitter_radius = 0.01
speed_min = 1.2
speed_max = 1.5
spread_degrees = 12.0
particle_lifetime = 1.0

[pass.fluid]
stage = "sph"
radius = 0.008
absorption = [30.0, 12.0, 5.0]

[pass.particles]
radius = 0.004
color = [0.9, 0.35, 0.1]
)";

// Captures the small dam break plus `extra_toml`, checks it against golden `name` and returns
// the dump of its compiled graph.
std::string check_golden_and_graph(const std::string& name, const char* extra_toml) {
  const std::filesystem::path dot = std::filesystem::temp_directory_path() / ("meniscus-" + name + ".dot");
  CaptureOptions options;
  options.scene = testing::write_variant("tests/render/scenes/dam_break_small.toml", name, extra_toml);
  options.frames = testing::kDamBreakFrames;
  options.sim = "cpu";
  options.validation = true;
  options.dump_graph = dot;
  const CaptureResult result = capture(options);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden(name, result.image);
  INFO(failure);
  CHECK(failure.empty());
  std::stringstream text;
  text << std::ifstream(dot).rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("two_surfaces: the screen-space fluid and its level set, split in one frame, match their golden",
          "[render][stages][slow]") {
  const std::string graph = check_golden_and_graph("two_surfaces", kTwoSurfaces);
  // Both chains are in the graph, each scoped by its side and stage, and the particles enter it
  // as the imported shared buffer the stage published.
  for (const char* pass : {"left.sph.fluid.depth", "left.sph.fluid.smooth", "left.sph.fluid.composite",
                           "right.surface.water.rp_count", "right.surface.water.draw", "scene.split"}) {
    INFO(pass);
    CHECK(graph.find("label=\"" + std::string(pass) + "\"") != std::string::npos);
  }
  CHECK(graph.find("label=\"left.sph.particles v0 (imported)\"") != std::string::npos);
  // The level set's cube records, published by the stage into a shared buffer.
  CHECK(graph.find("label=\"right.surface.water.records v0 (imported)\"") != std::string::npos);
}

TEST_CASE("a scene with two particle stages draws each with its own pass instance and matches its golden",
          "[render][stages]") {
  const std::string graph = check_golden_and_graph("two_stages", kTwoStages);
  CHECK(graph.find("label=\"sph.fluid.depth\"") != std::string::npos);
  CHECK(graph.find("label=\"fountain.particles.impostors\"") != std::string::npos);
  CHECK(graph.find("label=\"fountain.particles v0 (imported)\"") != std::string::npos);
}

}  // namespace meniscus
