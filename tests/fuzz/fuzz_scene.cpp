// Scene TOML: the fixed sections (load_scene) and each [[stage]] table through its settings
// reader, as check_stages reads them before anything is made. A levelset stage built from
// particles is given the facts of a small SPH stage as its producer (the registry resolves that
// name; the settings reader is what is fuzzed here). The [pass.*] tables are read by the passes'
// settings, which need the render passes' library, and are not fuzzed by this target.
#include "engine/app/ballistic_settings.h"
#include "engine/app/levelset_settings.h"
#include "engine/app/scene.h"
#include "engine/app/segment_settings.h"
#include "engine/app/sph_settings.h"
#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace meniscus;
  const auto file = fuzz::write_file("input.toml", data, size);
  fuzz::expect_clean("scene", [&] {
    const Scene scene = load_scene(file);
    StageFacts producer;
    producer.name = "fluid";
    producer.type = "sph";
    producer.particle_radius = 0.01f;
    producer.bounds_min = glm::vec3(0.0f);
    producer.bounds_max = glm::vec3(1.0f);
    for (const StageConfig& stage : scene.stages) {
      if (stage.type == "ballistic") read_ballistic_settings(stage.params, scene);
      else if (stage.type == "sph") read_sph_settings(stage.params);
      else if (stage.type == "levelset") read_levelset_settings(stage.params, scene, &producer);
      else if (stage.type == "segment") read_segment_settings(stage.params, scene);
    }
  });
  return 0;
}
