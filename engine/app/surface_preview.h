#pragma once
// [pass.surface.preview]: a volume's iso-surfaces drawn first from its coarsest wavelet
// approximation, then a band of detail added every `frames_per_level` frames down to the full
// volume (sim/wavelet/wavelet_preview.h): what a volume streamed as coefficients shows while it
// arrives. The panel can hold any level instead. Each change of level replaces the pass's volume
// (SurfacePass::update_volume, which idles the device): `levels` times in a run, not per frame.
#include <optional>

#include "sim/histopyramid/volume.h"
#include "sim/wavelet/wavelet_preview.h"

namespace meniscus {

struct SurfacePreviewSettings {
  sim::wavelet::Wavelet wavelet = sim::wavelet::Wavelet::Cdf97;
  int levels = 2;             // detail levels withheld at the start
  int frames_per_level = 30;  // 0: stay at the coarsest level
};

class SurfacePreview {
 public:
  // InputError naming the volume when it cannot have `levels` levels.
  SurfacePreview(const sim::Volume& volume, const SurfacePreviewSettings& settings);

  // The volume at the level shown now.
  sim::Volume volume() const;
  // Once before each frame: true when the level changed since the last call (the pass then
  // takes volume()).
  bool advance();

  // The level shown (detail levels withheld, 0 = the full volume), for the panel: setting it
  // stops the automatic refinement.
  int level() const { return level_; }
  int levels() const { return settings_.levels; }
  void hold(int level);

 private:
  sim::Volume shape_;  // the volume's grid, without values
  SurfacePreviewSettings settings_;
  sim::wavelet::WaveletPreview preview_;
  int level_, shown_;  // shown_: the level the pass holds
  int frames_ = 0;
  bool held_ = false;
};

}  // namespace meniscus
