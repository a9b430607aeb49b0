#pragma once
// A mesh (a scan: Lucy, the bunny) as a clear refracting body standing on the floor, turning
// about the vertical: every vertex moves every frame, so the kd-tree and the photons are
// rebuilt from scratch each frame, as for the pool's waves.
#include <cstdint>

#include "sim/common/mesh_reader.h"
#include "sim/photon/water_block.h"
#include "sim/raytrace/refraction_frame.h"

namespace meniscus::sim::raytrace {

struct SpinningMeshParams {
  float height = 1.0f;                    // m: the mesh is scaled to stand this tall
  uint32_t up_axis = 1;                   // the mesh's own up: 0 x, 1 y, 2 z (scans often use z)
  float spin_degrees_per_second = 20.0f;  // about the vertical through its middle
  RefractionView view;

  void validate() const;  // InputError naming the field
};

class SpinningMesh {
 public:
  // The mesh stood up, centred over the origin, its base on y = 0, scaled to `height`.
  // InputError naming `source` for a mesh without triangles or with no extent along up.
  SpinningMesh(const TriangleMesh& mesh, const SpinningMeshParams& params, const std::string& source);

  // Its triangles at `time` seconds.
  photon::TriangleSoup at(double time) const;

  SpinningMeshParams& params() { return params_; }

 private:
  SpinningMeshParams params_;
  photon::TriangleSoup rest_;
};

}  // namespace meniscus::sim::raytrace
