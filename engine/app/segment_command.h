#pragma once
#include "engine/app/cli.h"

namespace meniscus {
// Runs `meniscus segment`: reads a volume, grows the seeds by Lefohn & Whitaker's threshold
// speed on the sparse level set (sim/levelset/segmentation.h) with a progress line, writes a
// mask, level set or surface and prints a summary. Returns the exit code.
int segment_volume(const SegmentOptions& options);
}  // namespace meniscus
