#pragma once
// Reads a scene's [[stage]] tables of the refraction scenes (sim/raytrace/refraction_stages.h):
// type = "caustics_pool", "refracting_mesh" and "refracting_surface". InputError naming the file, line and
// field for a bad value.
#include <string>

#include "engine/app/param_table.h"
#include "sim/raytrace/caustics_pool.h"
#include "sim/raytrace/refraction_stages.h"
#include "sim/raytrace/spinning_mesh.h"

namespace meniscus {

sim::raytrace::PoolParams read_caustics_pool_settings(const ParamTable& table);

// type = "refracting_surface": the view and the glass tank around the surface, if any (its
// level set is the stage's `level_set`).
struct RefractingSurfaceSettings {
  sim::raytrace::RefractionView view;
  sim::raytrace::SurfaceTank tank;
};
RefractingSurfaceSettings read_refracting_surface_settings(const ParamTable& table);

struct RefractingMeshSettings {
  std::string mesh;  // the file, resolved (engine/app/data_path.h)
  sim::raytrace::SpinningMeshParams params;
};
RefractingMeshSettings read_refracting_mesh_settings(const ParamTable& table);

}  // namespace meniscus
