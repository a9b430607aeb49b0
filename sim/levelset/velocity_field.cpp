#include "sim/levelset/velocity_field.h"

#include "sim/levelset/gpu_stl_fields.h"

namespace meniscus::sim::levelset {

VelocityField enright_velocity(int resolution, float period) {
  // One formula for both backends (gpu_stl_fields.h).
  const double n = resolution;
  return [n, period](glm::vec3 voxel, float t) { return enright_velocity_at(n, period, voxel, t); };
}

}  // namespace meniscus::sim::levelset
