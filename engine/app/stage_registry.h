#pragma once
// The one registry of simulation stage types: for each `type` of a scene's [[stage]] table,
// what it outputs, which other stage's output it may consume, how its table is checked and how
// the stage is made. The backend is picked here, once, for every stage of a scene.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "engine/app/scene.h"
#include "passes/solids/solid_shape.h"
#include "sim/common/stage.h"

namespace meniscus {

class Context;

// What a scene's stage is known to be before anything is made: enough for the stages and
// passes that name it to be checked against it.
struct StageFacts {
  std::string name;
  std::string type;
  sim::StageOutput output = sim::StageOutput::Particles;
  std::optional<size_t> input;    // index of the stage whose output this one consumes
  float particle_radius = 0.0f;   // particle stages that have one
  std::optional<glm::vec3> bounds_min, bounds_max;  // where its output can lie (an SPH domain)
  std::vector<passes::SolidShape> solids;  // what the stage's particles collide with, drawn by the solids passes
};

// Reads every [[stage]] table in scene order (InputError naming the file, line and field: an
// unknown type, a bad setting, an input naming no earlier stage or one of the wrong kind).
std::vector<StageFacts> check_stages(const Scene& scene);

struct StageInstance {
  StageFacts facts;
  std::unique_ptr<sim::Stage> stage;
};

// Makes the scene's stages on `backend` (resolved from --sim by sim::resolve_backend).
std::vector<StageInstance> make_stages(const Scene& scene, sim::SimBackend backend, const Context& context);

// The index of the stage `table.key` names, which must output `kind` when one is given
// (InputError otherwise, naming the field and the stages there are). `stage_name` may carry a
// "stage:" prefix.
size_t find_stage(const ParamTable& table, std::string_view key, std::string_view stage_name,
                  std::span<const StageFacts> stages, std::optional<sim::StageOutput> kind);

}  // namespace meniscus
