#include "passes/mip/mip_progress.h"

#include <algorithm>

namespace meniscus::passes {

uint32_t refinement_target(const MipSettings& settings, const sim::mip::StreamIndex& stream) {
  const uint32_t budget = sim::mip::detail_budget(stream, settings.budget);
  if (settings.error_bound <= 0.0) return budget;
  return std::min(budget, sim::mip::detail_count_for_error(stream, settings.error_bound));
}

MipProgress::Step MipProgress::advance(const MipSettings& settings, const sim::mip::StreamIndex& stream) {
  const Key key{settings.method, settings.axis, settings.budget, settings.error_bound, settings.refine_block};
  Step step;
  if (key_ != key) {
    key_ = key;
    target_ = refinement_target(settings, stream);
    drawn_ = 0;
    step.restart = true;
  }
  // A block of 0 draws everything at once (the settings say not to refine).
  const uint32_t block = settings.refine_block ? settings.refine_block : target_;
  step.first = drawn_;
  step.count = std::min(block, target_ - drawn_);
  drawn_ += step.count;
  return step;
}

}  // namespace meniscus::passes
