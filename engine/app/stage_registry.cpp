#include "engine/app/stage_registry.h"

#include <functional>

#include "engine/app/ballistic_settings.h"
#include "engine/app/levelset_settings.h"
#include "engine/app/refraction_settings.h"
#include "engine/app/segment_settings.h"
#include "engine/app/sph_settings.h"
#include "passes/solids/solids_of_sph.h"
#include "sim/ballistic/ballistic_stage.h"
#include "sim/levelset/levelset_stage.h"
#include "sim/levelset/segmentation_stage.h"
#include "sim/raytrace/refraction_stages.h"
#include "sim/sph/sph_stage.h"

namespace meniscus {
namespace {

// One stage type. `read` checks the table and fills what the type knows of itself into the
// facts (the registry has set name, type, output and input); `make` builds the stage.
struct StageType {
  std::string_view type;
  sim::StageOutput output;
  std::string_view input_key;  // the table key naming a producer stage ("" for none)
  sim::StageOutput input_kind = sim::StageOutput::Particles;
  std::function<void(const StageConfig&, const Scene&, std::span<const StageFacts>, StageFacts&)> read;
  std::function<std::unique_ptr<sim::Stage>(const StageConfig&, const Scene&, std::span<const StageFacts>,
                                            const StageFacts&, sim::SimBackend, const Context&)>
      make;
};

const StageFacts* producer_of(const StageFacts& facts, std::span<const StageFacts> earlier) {
  return facts.input ? &earlier[*facts.input] : nullptr;
}

const std::vector<StageType>& stage_types() {
  static const std::vector<StageType> types = {
      {"ballistic", sim::StageOutput::Particles, "", sim::StageOutput::Particles,
       [](const StageConfig& c, const Scene& scene, std::span<const StageFacts>, StageFacts&) {
         read_ballistic_settings(c.params, scene);
       },
       [](const StageConfig& c, const Scene& scene, std::span<const StageFacts>, const StageFacts&,
          sim::SimBackend backend, const Context& context) -> std::unique_ptr<sim::Stage> {
         return sim::make_ballistic_stage(read_ballistic_settings(c.params, scene), backend, context);
       }},
      {"sph", sim::StageOutput::Particles, "", sim::StageOutput::Particles,
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, StageFacts& facts) {
         const sim::SphParams p = read_sph_settings(c.params);
         facts.particle_radius = p.particle_radius;
         facts.bounds_min = glm::vec3(p.domain.min[0], p.domain.min[1], p.domain.min[2]);
         facts.bounds_max = glm::vec3(p.domain.max[0], p.domain.max[1], p.domain.max[2]);
         facts.solids = passes::solids_of(p);
       },
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, const StageFacts&, sim::SimBackend backend,
          const Context& context) -> std::unique_ptr<sim::Stage> {
         return sim::make_sph_stage(read_sph_settings(c.params), backend, context);
       }},
      {"levelset", sim::StageOutput::LevelSet, "particles", sim::StageOutput::Particles,
       [](const StageConfig& c, const Scene& scene, std::span<const StageFacts> earlier, StageFacts& facts) {
         read_levelset_settings(c.params, scene, producer_of(facts, earlier));
       },
       [](const StageConfig& c, const Scene& scene, std::span<const StageFacts> earlier, const StageFacts& facts,
          sim::SimBackend backend, const Context& context) -> std::unique_ptr<sim::Stage> {
         return sim::levelset::make_levelset_stage(read_levelset_settings(c.params, scene, producer_of(facts, earlier)),
                                                   backend, context);
       }},
      {"segment", sim::StageOutput::LevelSet, "", sim::StageOutput::Particles,
       [](const StageConfig& c, const Scene& scene, std::span<const StageFacts>, StageFacts&) {
         read_segment_settings(c.params, scene);
       },
       [](const StageConfig& c, const Scene& scene, std::span<const StageFacts>, const StageFacts&,
          sim::SimBackend backend, const Context& context) -> std::unique_ptr<sim::Stage> {
         return std::make_unique<sim::levelset::SegmentationStage>(read_segment_settings(c.params, scene), backend,
                                                                   context);
       }},
      {"caustics_pool", sim::StageOutput::TracedImage, "", sim::StageOutput::Particles,
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, StageFacts&) {
         read_caustics_pool_settings(c.params);
       },
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, const StageFacts&, sim::SimBackend backend,
          const Context& context) -> std::unique_ptr<sim::Stage> {
         return sim::raytrace::make_caustics_pool_stage(read_caustics_pool_settings(c.params), backend, &context);
       }},
      {"refracting_surface", sim::StageOutput::TracedImage, "level_set", sim::StageOutput::LevelSet,
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, StageFacts& facts) {
         if (!facts.input) c.params.fail("level_set", "names the level-set stage whose surface is traced");
         read_refracting_surface_settings(c.params);
       },
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, const StageFacts&, sim::SimBackend backend,
          const Context& context) -> std::unique_ptr<sim::Stage> {
         const RefractingSurfaceSettings s = read_refracting_surface_settings(c.params);
         return sim::raytrace::make_refracting_surface_stage(s.view, backend, &context, s.tank);
       }},
      {"refracting_mesh", sim::StageOutput::TracedImage, "", sim::StageOutput::Particles,
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, StageFacts&) {
         read_refracting_mesh_settings(c.params);
       },
       [](const StageConfig& c, const Scene&, std::span<const StageFacts>, const StageFacts&, sim::SimBackend backend,
          const Context& context) -> std::unique_ptr<sim::Stage> {
         const RefractingMeshSettings s = read_refracting_mesh_settings(c.params);
         return sim::raytrace::make_spinning_mesh_stage(sim::read_mesh(s.mesh), s.params, s.mesh, backend, &context);
       }},
  };
  return types;
}

const StageType& type_of(const StageConfig& config) {
  for (const StageType& type : stage_types())
    if (type.type == config.type) return type;
  std::string known;
  for (const StageType& type : stage_types()) known += std::string(known.empty() ? "" : ", ") + "\"" + std::string(type.type) + "\"";
  config.params.fail("type", "unknown stage type \"" + config.type + "\" (known: " + known + ")");
}

StageFacts read_facts(const StageConfig& config, const Scene& scene, std::span<const StageFacts> earlier) {
  const StageType& type = type_of(config);
  StageFacts facts;
  facts.name = config.name;
  facts.type = config.type;
  facts.output = type.output;
  if (!type.input_key.empty() && config.params.has(type.input_key)) {
    const std::string producer = config.params.string(type.input_key, "");
    for (const StageConfig& other : scene.stages)
      if (&other > &config && other.name == producer)
        config.params.fail(type.input_key, "stage \"" + producer + "\" comes after stage \"" + config.name +
                                               "\"; a stage consumes only the output of a stage listed before it");
    facts.input = find_stage(config.params, type.input_key, producer, earlier, type.input_kind);
  }
  type.read(config, scene, earlier, facts);
  return facts;
}

}  // namespace

size_t find_stage(const ParamTable& table, std::string_view key, std::string_view stage_name,
                  std::span<const StageFacts> stages, std::optional<sim::StageOutput> kind) {
  if (stage_name.starts_with("stage:")) stage_name.remove_prefix(6);
  std::string names;
  for (size_t i = 0; i < stages.size(); ++i) {
    if (stages[i].name != stage_name) {
      names += std::string(names.empty() ? "" : ", ") + "\"" + stages[i].name + "\"";
      continue;
    }
    if (kind && stages[i].output != *kind)
      table.fail(key, "stage \"" + stages[i].name + "\" (type \"" + stages[i].type + "\") outputs " +
                          sim::stage_output_name(stages[i].output) + ", not " + sim::stage_output_name(*kind));
    return i;
  }
  table.fail(key, "no stage is named \"" + std::string(stage_name) + "\"" +
                      (names.empty() ? std::string(" (there is no stage it could name)") : " (stages: " + names + ")"));
}

std::vector<StageFacts> check_stages(const Scene& scene) {
  std::vector<StageFacts> facts;
  for (const StageConfig& config : scene.stages) facts.push_back(read_facts(config, scene, facts));
  return facts;
}

std::vector<StageInstance> make_stages(const Scene& scene, sim::SimBackend backend, const Context& context) {
  const std::vector<StageFacts> facts = check_stages(scene);
  std::vector<StageInstance> stages;
  for (size_t i = 0; i < scene.stages.size(); ++i) {
    const StageConfig& config = scene.stages[i];
    stages.push_back({facts[i], type_of(config).make(config, scene, facts, facts[i], backend, context)});
  }
  return stages;
}

}  // namespace meniscus
