// Built without OpenJPEG or GSL development packages: the wavelet benchmark reports the peers
// as absent.
#include "tools/bench/wavelet_peers.h"

namespace meniscus::bench {

#if !MENISCUS_BENCH_HAS_OPENJPEG
std::optional<OpenJpegDwtTime> openjpeg_dwt(uint32_t, uint32_t, int, bool, int, int) { return std::nullopt; }
const char* openjpeg_version() { return "absent"; }
#endif
#if !MENISCUS_BENCH_HAS_GSL
std::optional<double> gsl_wavelet2d_ms(const std::vector<double>&, uint32_t, const char*, int, int) {
  return std::nullopt;
}
const char* gsl_version() { return "absent"; }
#endif

}  // namespace meniscus::bench
