// GSL's wavelets as the wavelet benchmark's peer (Haar and Daubechies; see wavelet_peers.h).
#include <gsl/gsl_version.h>
#include <gsl/gsl_wavelet.h>
#include <gsl/gsl_wavelet2d.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "tools/bench/wavelet_peers.h"

namespace meniscus::bench {

std::optional<double> gsl_wavelet2d_ms(const std::vector<double>& image, uint32_t n, const char* family, int member,
                                       int repeat) {
  const gsl_wavelet_type* type = std::strcmp(family, "haar") == 0 ? gsl_wavelet_haar : gsl_wavelet_daubechies;
  gsl_wavelet* wavelet = gsl_wavelet_alloc(type, size_t(member));
  gsl_wavelet_workspace* work = gsl_wavelet_workspace_alloc(n);
  if (!wavelet || !work) throw std::runtime_error("GSL: cannot allocate the wavelet");
  std::vector<double> data;
  std::vector<double> ms;
  for (int r = 0; r <= repeat; ++r) {  // the first run warms up
    data = image;
    const auto start = std::chrono::steady_clock::now();
    if (gsl_wavelet2d_nstransform_forward(wavelet, data.data(), n, n, n, work) != 0)
      throw std::runtime_error("GSL: gsl_wavelet2d_nstransform_forward failed");
    if (r > 0)
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  gsl_wavelet_workspace_free(work);
  gsl_wavelet_free(wavelet);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

const char* gsl_version() { return GSL_VERSION; }

}  // namespace meniscus::bench
