#pragma once
// Independent references for the wavelet tests, written from the published definitions rather
// than from our lifting code:
//  - brute-force convolution with the analysis filter taps (Le Gall 5/3 of the thesis' Table
//    3.1; CDF 9/7 of ITU-T T.800) and whole-sample symmetric extension;
//  - OpenJPEG 2.5's forward DWT conventions, transcribed from its dwt.c
//    (opj_dwt_encode_and_deinterleave_h_one_row, opj_dwt_encode_1_real): same rounding, same
//    border cases, columns then rows per level, approximations first. OpenJPEG keeps these
//    internal (libopenjp2 exports no DWT), so its code cannot be called directly.
#include <cstdint>
#include <vector>

namespace meniscus::sim::wavelet::reference {

// Whole-sample symmetric extension of index i into [0, n).
inline long mirror(long i, long n) {
  if (n == 1) return 0;
  const long period = 2 * (n - 1);
  i %= period;
  if (i < 0) i += period;
  return i > n - 1 ? period - i : i;
}

// One level of an analysis filter bank on a line: low taps h[-L..L], high taps g[-G..G]
// centred on the odd samples; output approximations first.
inline std::vector<double> filter_bank(const std::vector<double>& x, const std::vector<double>& h,
                                       const std::vector<double>& g) {
  const long n = long(x.size()), m = (n + 1) / 2, d = n / 2, lh = long(h.size()) / 2, lg = long(g.size()) / 2;
  std::vector<double> out(n);
  for (long k = 0; k < m; ++k) {
    double sum = 0;
    for (long j = -lh; j <= lh; ++j) sum += h[j + lh] * x[mirror(2 * k + j, n)];
    out[k] = sum;
  }
  for (long k = 0; k < d; ++k) {
    double sum = 0;
    for (long j = -lg; j <= lg; ++j) sum += g[j + lg] * x[mirror(2 * k + 1 + j, n)];
    out[m + k] = sum;
  }
  return out;
}

// Le Gall 5/3 (Table 3.1, unnormalised) and CDF 9/7 (T.800; low-pass DC gain 1).
inline const std::vector<double> kLeGallLow = {-1.0 / 8, 2.0 / 8, 6.0 / 8, 2.0 / 8, -1.0 / 8};
inline const std::vector<double> kLeGallHigh = {-0.5, 1.0, -0.5};
inline const std::vector<double> kCdfLow = {0.02674875741080976,  -0.01686411844287495, -0.07822326652898785,
                                            0.2668641184428723,   0.6029490182363579,   0.2668641184428723,
                                            -0.07822326652898785, -0.01686411844287495, 0.02674875741080976};
inline const std::vector<double> kCdfHigh = {0.09127176311424948, -0.05754352622849957, -0.5912717631142470,
                                             1.115087052456994,   -0.5912717631142470,  -0.05754352622849957,
                                             0.09127176311424948};

// OpenJPEG's reversible 5/3 on one line (its "even" case: the line starts at an even
// coordinate), in place, approximations first.
inline void openjpeg_53(int32_t* row, long width) {
  if (width < 2) return;
  const long sn = (width + 1) / 2, dn = width - sn;
  std::vector<int32_t> d(dn), s(sn);
  long i = 0;
  for (; i < sn - 1; ++i) d[i] = row[2 * i + 1] - ((row[2 * i] + row[2 * i + 2]) >> 1);
  if (width % 2 == 0) d[i] = row[2 * i + 1] - row[2 * i];
  s[0] = row[0] + ((d[0] + d[0] + 2) >> 2);
  for (i = 1; i < dn; ++i) s[i] = row[2 * i] + ((d[i - 1] + d[i] + 2) >> 2);
  if (width % 2 == 1) s[i] = row[2 * i] + ((d[i - 1] + d[i - 1] + 2) >> 2);
  for (i = 0; i < sn; ++i) row[i] = s[i];
  for (i = 0; i < dn; ++i) row[sn + i] = d[i];
}

// OpenJPEG's irreversible 9/7 on one line (opj_dwt_encode_1_real, even case): the lifting steps
// on the interleaved line with its constants and (a + b) * c rounding, the last sample of an
// odd step doubled at the border, then low × 1/K and high × K; approximations first.
inline void openjpeg_97(float* row, long width) {
  if (width < 2) return;
  const long sn = (width + 1) / 2, dn = width - sn;
  const float alpha = -1.586134342f, beta = -0.052980118f, gamma = 0.882911075f, delta = 0.443506852f;
  const float K = 1.230174105f, invK = float(1.0 / 1.230174105);
  std::vector<float> w(row, row + width);
  auto odd_step = [&](float c) {  // w[2i+1] += (w[2i] + w[2i+2]) * c
    for (long i = 0; i < dn; ++i) w[2 * i + 1] += (2 * i + 2 < width ? (w[2 * i] + w[2 * i + 2]) : 2 * w[2 * i]) * c;
  };
  auto even_step = [&](float c) {  // w[2i] += (w[2i-1] + w[2i+1]) * c
    for (long i = 0; i < sn; ++i) {
      const float left = i > 0 ? w[2 * i - 1] : w[1];
      const float right = 2 * i + 1 < width ? w[2 * i + 1] : w[2 * i - 1];
      w[2 * i] += (i > 0 && 2 * i + 1 < width ? left + right : 2 * (i > 0 ? left : right)) * c;
    }
  };
  odd_step(alpha);
  even_step(beta);
  odd_step(gamma);
  even_step(delta);
  for (long i = 0; i < sn; ++i) row[i] = w[2 * i] * invK;
  for (long i = 0; i < dn; ++i) row[sn + i] = w[2 * i + 1] * K;
}

// OpenJPEG's multi-level 2-D order: per level the columns of the region, then its rows.
template <class T, class Line>
void openjpeg_2d(std::vector<T>& image, long width, long height, int levels, Line line) {
  long w = width, h = height;
  std::vector<T> column;
  for (int level = 0; level < levels; ++level) {
    column.resize(h);
    for (long x = 0; x < w; ++x) {
      for (long y = 0; y < h; ++y) column[y] = image[y * width + x];
      line(column.data(), h);
      for (long y = 0; y < h; ++y) image[y * width + x] = column[y];
    }
    for (long y = 0; y < h; ++y) line(image.data() + y * width, w);
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
}

}  // namespace meniscus::sim::wavelet::reference
