#pragma once
// The packaged CPU wavelet transforms `meniscus-bench wavelet` compares against, when their
// Debian packages are installed (libopenjp2-7-dev, libgsl-dev); bench only, never the product.
#include <cstdint>
#include <optional>
#include <vector>

namespace meniscus::bench {

struct OpenJpegDwtTime {
  double dwt_ms;      // raw_dwt_ms less the extra code-blocks' cost (below)
  double raw_dwt_ms;  // median over repetitions of encode(levels) - encode(no levels), all-zero image
  double encode_ms;   // median encode with `levels` levels of the all-zero image
  double encode_zero_levels_ms;
  double codeblock_us;    // what one more (empty) code-block costs an encode
  long extra_codeblocks;  // how many more the levels' subbands have than the undivided image
};

// OpenJPEG's forward DWT time through its public API, which has no DWT entry point (dwt.c is
// internal and libopenjp2 exports none of it): a lossless (5/3) or irreversible (9/7) J2K
// encode of a signed all-zero width × height image, one tile, with `levels` levels, minus the
// same encode with none. With zeros every code-block is empty, so tier-1 and tier-2 coding do
// only bookkeeping, the same per sample in both encodes (copy, quantisation, max). Not quite
// the same per block: the subbands of the levels need more 64 × 64 code-blocks than the
// undivided image (573 against 510 at 1920 × 1080, 3 levels), and a block's set-up, job and
// packet header cost microseconds; that much is measured (the no-level encode cut into 32 × 32
// blocks) and taken off, so the DWT is not charged for it. `threads` through
// opj_codec_set_threads; nullopt without OpenJPEG.
std::optional<OpenJpegDwtTime> openjpeg_dwt(uint32_t width, uint32_t height, int levels, bool irreversible, int threads,
                                            int repeat);
const char* openjpeg_version();

// GSL's 2-D non-standard transform (gsl_wavelet2d_nstransform_forward: rows and columns per
// level, all levels down to 1 × 1, as our levels) of an n × n double image, n a power of two;
// `family` "haar" or "daubechies" (member `member`). Single-threaded. Median ms over `repeat`;
// nullopt without GSL.
std::optional<double> gsl_wavelet2d_ms(const std::vector<double>& image, uint32_t n, const char* family, int member,
                                       int repeat);
const char* gsl_version();

}  // namespace meniscus::bench
