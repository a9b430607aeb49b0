#include "engine/app/surface_preview.h"

#include <algorithm>

namespace meniscus {
namespace {

sim::wavelet::Shape shape_of(const sim::Volume& v) { return sim::wavelet::Shape::volume(v.dims.x, v.dims.y, v.dims.z); }

sim::Volume without_values(const sim::Volume& v) {
  sim::Volume grid = v;
  grid.values.clear();
  return grid;
}

}  // namespace

SurfacePreview::SurfacePreview(const sim::Volume& volume, const SurfacePreviewSettings& settings)
    : shape_(without_values(volume)),
      settings_(settings),
      preview_(volume.values, shape_of(volume), settings.wavelet, settings.levels, volume.source),
      level_(settings.levels),
      shown_(settings.levels) {}

sim::Volume SurfacePreview::volume() const {
  sim::Volume v = shape_;
  v.values = preview_.volume(level_);
  return v;
}

bool SurfacePreview::advance() {
  // Each level is drawn for frames_per_level frames, the first of them included.
  if (!held_ && settings_.frames_per_level > 0 && level_ > 0 && ++frames_ > settings_.frames_per_level) {
    frames_ = 1;
    --level_;
  }
  const bool changed = level_ != shown_;
  shown_ = level_;
  return changed;
}

void SurfacePreview::hold(int level) {
  level_ = std::clamp(level, 0, settings_.levels);
  held_ = true;
}

}  // namespace meniscus
