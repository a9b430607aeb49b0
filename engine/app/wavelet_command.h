#pragma once
#include "engine/app/cli.h"

namespace meniscus {
// Runs `meniscus wavelet`: reads a volume, lifts it forward `levels` levels (CPU or CUDA, float
// or reversible integer), optionally writes the coefficients, lifts them back and prints one
// JSON line with the reconstruction's max_abs_error and rms_error and the times. Returns the
// exit code.
int transform_volume(const WaveletOptions& options);
}  // namespace meniscus
