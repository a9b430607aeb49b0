// meniscus-bench <benchmark> [options]: each benchmark prints one JSON object per line, each
// figure next to its peer measured in the same run.
#include <cstdio>
#include <cstring>
#include <string>

#include "engine/core/error.h"

namespace meniscus::bench {
int run_mc(int argc, char** argv);
int run_levelset(int argc, char** argv);
int run_kdtree(int argc, char** argv);
int run_fluid(int argc, char** argv);
int run_sph(int argc, char** argv);
int run_reconstruct(int argc, char** argv);
int run_wavelet(int argc, char** argv);
int run_mip(int argc, char** argv);
int run_raytrace(int argc, char** argv);
int run_segment(int argc, char** argv);
}

int main(int argc, char** argv) {
  // One line of usage per line of source.
  // clang-format off
  const char* usage =
      "usage: meniscus-bench mc [--threads N] [--sizes 64,128,256] [--repeat R] [--no-vulkan] [--check]\n"
      "       meniscus-bench levelset [--threads N] [--radii 100,200] [--steps N] [--enright 128,256 [--enright-gamma G] [--enright-reinit K] [--enright-reinit-every S] [--enright-cfl C] [--enright-peer openvdb|none]] [--precision float32,fixed16]\n"
      "       meniscus-bench kdtree [--threads N] [--points N] [--k K] [--repeat R] [--cases uniform,sphere] [--traversal-cost C] [--kernels fastest|baseline]\n"
      "       meniscus-bench fluid [--size 1920x1080] [--particles 65536,1048576] [--repeat R] [--device NAME]\n"
      "       meniscus-bench sph [--threads N] [--particles 65536,262144,1048576] [--steps N] [--warmup N] [--backends cpu,cuda]\n"
      "       meniscus-bench sph --scene FILE.toml [--frames N] [--backends cpu,cuda]\n"
      "       meniscus-bench reconstruct [--threads N] [--input points.ply] [--start-depth d] [--depth D] [--alpha A]\n"
      "       meniscus-bench wavelet [--threads N] [--size 1920x1080] [--volume 256] [--levels 3] [--repeat R]\n"
      "                              [--wavelets haar,5/3,9/7,dd97,dd137] [--backends cpu,cuda]\n"
      "       meniscus-bench mip [--size WxH] [--volume FILE] [--threads N] [--repeat R] [--levels L] [--max-depth D]\n"
      "                          [--axis x|y|z] [--budgets 0.01,0.05,0.2] [--vtk fixed_point,gpu|none] [--device NAME]\n"
      "                          [--sim cpu|cuda] [--check]\n"
      "       meniscus-bench raytrace [--threads N] [--size 1024] [--frames F] [--grid N] [--cases water,lucy,bunny]\n"
      "                               [--mesh any.ply|.obj] [--png prefix] [--kernels fastest|baseline]\n"
      "       meniscus-bench segment --seed i,j,k,r... --lower L --upper U [--volume FILE] [--curvature W] [--rms E]\n"
      "                              [--max-steps N] [--threads N] [--reference MASK] [--itk serial,parallel|none] [--sim cpu|cuda]\n"
      "                              [--masks DIR] [--isotropic]\n";
  // clang-format on
  if (argc < 2 || !std::strcmp(argv[1], "--help")) {
    std::fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  try {
    if (!std::strcmp(argv[1], "mc")) return meniscus::bench::run_mc(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "levelset")) return meniscus::bench::run_levelset(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "kdtree")) return meniscus::bench::run_kdtree(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "fluid")) return meniscus::bench::run_fluid(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "sph")) return meniscus::bench::run_sph(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "reconstruct")) return meniscus::bench::run_reconstruct(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "wavelet")) return meniscus::bench::run_wavelet(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "mip")) return meniscus::bench::run_mip(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "segment")) return meniscus::bench::run_segment(argc - 1, argv + 1);
    if (!std::strcmp(argv[1], "raytrace")) return meniscus::bench::run_raytrace(argc - 1, argv + 1);
  } catch (const meniscus::InputError& error) {
    std::fprintf(stderr, "meniscus-bench: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "meniscus-bench: error: %s\n", error.what());
    return 1;
  }
  std::fprintf(stderr, "meniscus-bench: unknown benchmark '%s'\n%s", argv[1], usage);
  return 2;
}
