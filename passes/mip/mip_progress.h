#pragma once
// Progressive refinement of the streaming MIP (thesis §2.4: "refine when the camera stops").
// The stream is ordered so that every prefix is the best image of its length, and max only
// raises pixels, so a still view can keep last frame's image and max the next block of details
// into it: after frame k it holds the first min(k * block, target) details, the same image
// streaming_mip() draws from scratch. Frames are counted, not timed, so a capture of N frames
// is the same image every run. Any change of what the image shows restarts from the base.
#include <cstdint>
#include <optional>

#include "passes/mip/mip_settings.h"
#include "sim/mip/coefficient_stream.h"

namespace meniscus::passes {

class MipProgress {
 public:
  // One frame's work: clear the image and draw the base first when `restart`, then details
  // [first, first + count) of the stream.
  struct Step {
    bool restart = false;
    uint32_t first = 0, count = 0;
  };
  Step advance(const MipSettings& settings, const sim::mip::StreamIndex& stream);

  uint32_t drawn() const { return drawn_; }    // details in the image after the last step
  uint32_t target() const { return target_; }  // where refinement stops: budget or error bound
  bool complete() const { return drawn_ == target_; }

 private:
  // What the image depends on (the window does not: it is applied when displaying).
  struct Key {
    MipMethod method;
    sim::mip::ViewAxis axis;
    double budget, error_bound;
    uint32_t refine_block;
    bool operator==(const Key&) const = default;
  };
  std::optional<Key> key_;
  uint32_t drawn_ = 0, target_ = 0;
};

// The details a frame of `settings` ends at when it is still: the budget, cut short by the
// error bound when there is one.
uint32_t refinement_target(const MipSettings& settings, const sim::mip::StreamIndex& stream);

}  // namespace meniscus::passes
