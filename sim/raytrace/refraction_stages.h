#pragma once
// The refraction scenes as stages publishing a traced image (sim/common/traced_image_stage.h):
// each step advances time, takes the frame's triangles, and renders them with
// refraction_frame.h; write() publishes the image. The panel moves the sun and whatever the
// scene animates. With the CUDA backend the photons and the view are traced on the device, the
// view straight into the CUDA-shared image (refraction_tracer.h); the triangle kd-tree, the
// photon kd-tree and the caustic's estimate are still the CPU's.
//
// `context`: the Vulkan context the CUDA backend shares its image with; the CPU backend needs
// none.
#include <memory>
#include <string>

#include "sim/common/backend.h"
#include "sim/common/mesh_reader.h"
#include "sim/common/traced_image_stage.h"
#include "sim/raytrace/caustics_pool.h"
#include "sim/raytrace/spinning_mesh.h"

namespace meniscus {
class Context;
}

namespace meniscus::sim::raytrace {

// InputError for bad params; DeviceError for the CUDA backend without a CUDA device.
std::unique_ptr<TracedImageStage> make_caustics_pool_stage(const PoolParams& params, SimBackend backend,
                                                           const Context* context = nullptr);

// An empty glass tank traced around a surface (photon/glass_tank.h); a wall of 0: none.
struct SurfaceTank {
  glm::vec3 inner_min{0.0f}, inner_max{1.0f};
  float wall = 0.0f;
};

// The surface of another stage's level set (its zero iso-surface, the mesh its cube records
// make: the fluid of the two-surfaces scenes) refracting under the sun, taken every frame from
// the producer the stage consumes, in `tank` if it has a wall. InputError for bad params or a
// bad tank; DeviceError as above.
std::unique_ptr<TracedImageStage> make_refracting_surface_stage(const RefractionView& view, SimBackend backend,
                                                                const Context* context = nullptr,
                                                                const SurfaceTank& tank = {});

// `source` names the mesh in errors. InputError for bad params or an empty mesh; DeviceError as
// above.
std::unique_ptr<TracedImageStage> make_spinning_mesh_stage(const TriangleMesh& mesh, const SpinningMeshParams& params,
                                                           const std::string& source, SimBackend backend,
                                                           const Context* context = nullptr);

}  // namespace meniscus::sim::raytrace
