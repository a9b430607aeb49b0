#pragma once
// The Enright test (Enright, Fedkiw, Ferziger & Mitchell 2002, §7.2): a sphere of radius 0.15
// at (0.35, 0.35, 0.35) in the unit cube, deformed by LeVeque's time-reversed 3D field for one
// period T, after which the exact solution is the initial sphere again. What a pure level-set
// method loses on the way (volume, a shifted centroid) measures its numerical dissipation.
#include <cstdint>

#include "sim/levelset/evolution.h"

namespace meniscus::sim::levelset {

// The defaults are the configuration with the least volume loss per second that we measured
// (meniscus-bench levelset --enright, 2 threads): a band of 3 voxels, one reinitialisation
// iteration every 4th step and CFL 0.9 lose 20.8% / 3.8% / 1.1% at 64³ / 128³ / 256³ where
// γ = 1.5 without reinitialisation at CFL 0.5 loses 62% / 26% / 5.7%, in about 0.6x its time.
// Reinitialising every step at CFL 0.9 is unstable (the sheet breaks up and volume grows);
// every 2nd, 8th or 16th step lose more or less at one grid but not at all three; CFL 1.0 blows
// up at 64³.
struct EnrightSetup {
  int resolution = 128;  // voxels per side of the unit cube
  float period = 3.0f;
  float gamma = 3.0f;
  Scheme scheme = Scheme::kWeno5;
  float cfl = 0.9f;
  int reinit_iterations = 1;
  int reinit_every = 4;  // steps between reinitialisations
  bool rescaling_speed = false;
  TilePrecision precision = TilePrecision::kFloat32;

  // The reinitialisation of the evolution (pseudo-time CFL 0.5, the scheme's own stencils).
  ReinitParams reinit() const { return {reinit_iterations, scheme, 0.5f, reinit_every}; }
};

struct EnrightResult {
  double initial_volume = 0, final_volume = 0;  // voxels
  double volume_loss = 0;                       // 1 − final / initial
  double exact_volume = 0;                      // 4/3 π r³ in voxels
  double initial_area = 0, final_area = 0;      // voxels²
  double centroid_shift = 0;                    // voxels, |final − initial centroid|
  double max_area = 0;                          // largest area during the run (stretching)
  uint32_t steps = 0;
  size_t max_tiles = 0;
  size_t max_bytes = 0;  // the tile list's, SortedTileList::bytes()
  double seconds = 0;  // the evolution only, not the set-up or the measures
};

EnrightResult run_enright(const EnrightSetup& setup);

}  // namespace meniscus::sim::levelset
