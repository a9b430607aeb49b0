#pragma once
// The caustics pool: a 2 m x 2 m block of water whose waves change every frame, standing on the
// floor under the sun (refraction_frame.h renders it). Every triangle of the top moves each
// frame, so the kd-tree, the photons and the caustic are rebuilt from scratch every frame: the
// dynamic scene of Zhou et al. 2008.
#include <cstdint>

#include "sim/photon/water_block.h"
#include "sim/raytrace/refraction_frame.h"

namespace meniscus::sim::raytrace {

struct PoolParams {
  uint32_t grid = 128;        // water cells per side
  float depth = 0.5f;         // m of still water
  float wave_height = 0.04f;  // m: the largest wave's amplitude
  float wave_speed = 1.0f;    // how fast the waves move (1: the default pattern's pace)
  RefractionView view;

  void validate() const;  // InputError naming the field
};

// The water's closed mesh at `time` seconds.
photon::TriangleSoup pool_water(const PoolParams& params, double time);

// The pool at `time` seconds.
inline RefractionFrame render_pool(const PoolParams& params, double time) {
  return render_refraction(pool_water(params, time), params.view);
}

}  // namespace meniscus::sim::raytrace
