// OpenJPEG (libopenjp2) as the wavelet benchmark's peer: see wavelet_peers.h for why its DWT is
// timed as the difference of two encodes.
#include <openjpeg.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "tools/bench/bench_setup.h"
#include "tools/bench/wavelet_peers.h"

namespace meniscus::bench {
namespace {

// A signed all-zero image (no DC shift, so every code-block stays empty). Made afresh for each
// encode: opj_start_compress takes the component data over and leaves the image without it.
opj_image_t* zero_image(uint32_t width, uint32_t height) {
  opj_image_cmptparm_t component{};
  component.dx = component.dy = 1;
  component.w = width;
  component.h = height;
  component.prec = 16;
  component.sgnd = 1;
  opj_image_t* image = opj_image_create(1, &component, OPJ_CLRSPC_GRAY);
  if (!image) throw std::runtime_error("OpenJPEG: cannot allocate the image");
  image->x1 = width;
  image->y1 = height;
  std::fill(image->comps[0].data, image->comps[0].data + size_t(width) * height, 0);
  return image;
}

double encode_ms(uint32_t width, uint32_t height, int levels, bool irreversible, int threads, int codeblock) {
  opj_image_t* image = zero_image(width, height);
  opj_cparameters_t p;
  opj_set_default_encoder_parameters(&p);
  p.numresolution = levels + 1;
  p.irreversible = irreversible ? 1 : 0;
  p.tcp_numlayers = 1;
  p.tcp_rates[0] = 0;  // lossless rate allocation: no rate search
  p.cp_disto_alloc = 1;
  p.tcp_mct = 0;  // one component: no colour transform (the default 255 means "decide", which opj_compress does)
  p.cblockw_init = p.cblockh_init = codeblock;
  opj_codec_t* codec = opj_create_compress(OPJ_CODEC_J2K);
  // The codestream of an all-zero image is a few hundred bytes: written to /dev/null.
  opj_stream_t* stream = opj_stream_create_default_file_stream("/dev/null", OPJ_FALSE);
  const auto start = std::chrono::steady_clock::now();
  bool ok = opj_setup_encoder(codec, &p, image) && opj_codec_set_threads(codec, threads) &&
            opj_start_compress(codec, image, stream) && opj_encode(codec, stream) && opj_end_compress(codec, stream);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  opj_stream_destroy(stream);
  opj_destroy_codec(codec);
  opj_image_destroy(image);
  if (!ok) throw std::runtime_error("OpenJPEG: encoding failed");
  return ms;
}

// Code-blocks of side `size` in a one-tile encode with default (2^15) precincts: every subband
// of every resolution is cut into blocks from its origin.
long codeblocks(uint32_t width, uint32_t height, int levels, uint32_t size) {
  auto blocks = [&](uint32_t w, uint32_t h) { return long((w + size - 1) / size) * long((h + size - 1) / size); };
  long count = 0;
  for (int level = 0; level < levels; ++level) {
    const uint32_t low_w = (width + 1) / 2, high_w = width / 2, low_h = (height + 1) / 2, high_h = height / 2;
    count += blocks(high_w, low_h) + blocks(low_w, high_h) + blocks(high_w, high_h);
    width = low_w;
    height = low_h;
  }
  return count + blocks(width, height);
}

constexpr int kCodeblock = 64;  // OpenJPEG's default
constexpr int kPeerRepeats = 31;

}  // namespace

std::optional<OpenJpegDwtTime> openjpeg_dwt(uint32_t width, uint32_t height, int levels, bool irreversible, int threads,
                                            int repeat) {
  encode_ms(width, height, levels, irreversible, threads, kCodeblock);  // warm-up
  // The DWT is a few per cent of an encode, so the two encodes' own noise swamps a difference of
  // their medians: each repetition's three encodes run back to back, and the medians are taken
  // of the differences within a repetition, over at least kPeerRepeats of them.
  std::vector<double> with, without, dwt, block_cost;
  for (int r = 0; r < std::max(repeat, kPeerRepeats); ++r) {
    with.push_back(encode_ms(width, height, levels, irreversible, threads, kCodeblock));
    without.push_back(encode_ms(width, height, 0, irreversible, threads, kCodeblock));
    const double small_blocks = encode_ms(width, height, 0, irreversible, threads, kCodeblock / 2);
    dwt.push_back(with.back() - without.back());
    block_cost.push_back(small_blocks - without.back());
  }
  OpenJpegDwtTime t;
  t.encode_ms = upper_median(with);
  t.encode_zero_levels_ms = upper_median(without);
  t.raw_dwt_ms = upper_median(dwt);
  // The cost of a code-block, from the same no-DWT encode cut into four times as many; the
  // levels' subbands need `extra` more blocks than the undivided image.
  const long base = codeblocks(width, height, 0, kCodeblock);
  t.codeblock_us = 1e3 * upper_median(block_cost) / double(codeblocks(width, height, 0, kCodeblock / 2) - base);
  t.extra_codeblocks = codeblocks(width, height, levels, kCodeblock) - base;
  t.dwt_ms = t.raw_dwt_ms - std::max(0.0, t.codeblock_us) * 1e-3 * double(t.extra_codeblocks);
  return t;
}

const char* openjpeg_version() { return opj_version(); }

}  // namespace meniscus::bench
