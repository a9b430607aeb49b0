#pragma once
// The caustics pool: a 2 m x 2 m block of water whose waves change every frame, in a glass tank
// standing on the floor under the sun (refraction_frame.h renders it). Every triangle of the top
// moves each frame, so the kd-tree, the photons and the caustic are rebuilt from scratch every
// frame: the dynamic scene of Zhou et al. 2008.
#include <cstdint>

#include "sim/photon/glass_tank.h"
#include "sim/raytrace/refraction_frame.h"

namespace meniscus::sim::raytrace {

struct PoolParams {
  uint32_t grid = 128;        // water cells per side
  float depth = 0.5f;         // m of still water
  float wave_height = 0.04f;  // m: the largest wave's amplitude
  float wave_speed = 1.0f;    // how fast the waves move (1: the default pattern's pace)
  float glass_wall = 0.03f;   // m of glass around the water and under it; 0: the water alone
  RefractionView view;

  void validate() const;  // InputError naming the field
};

// The water's closed mesh at `time` seconds, in its tank, and the media they separate. The
// tank's rim stands 30% of the depth above the still water, over the highest wave.
photon::OpticalMesh pool_scene(const PoolParams& params, double time);

// The pool at `time` seconds.
inline RefractionFrame render_pool(const PoolParams& params, double time) {
  const photon::OpticalMesh pool = pool_scene(params, time);
  return render_refraction(pool.mesh, params.view, {}, pool.optics);
}

}  // namespace meniscus::sim::raytrace
