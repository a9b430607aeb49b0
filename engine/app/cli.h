#pragma once
// The `meniscus` command line: a verb and its flags. Every error is an InputError naming the
// flag and the bad value; main() prints it with the usage and exits with 2.
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/app/capture.h"
#include "engine/app/run_window.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus {

enum class Verb { Run, Capture, Mesh, LevelSet, Reconstruct, Segment, Wavelet, Help, Version };

// `meniscus mesh <volume> --iso V -o out.ply`: marching cubes through the HistoPyramid.
struct MeshOptions {
  std::string volume;  // a .nrrd/.nhdr/.vtk file, or an analytic field such as cayley:256
  std::optional<float> iso;
  std::filesystem::path output;
  std::string sim = "cpu";  // cpu | vulkan
  std::string device;
  bool validation = kValidationByDefault;
};

// `meniscus levelset <in.vdb|mesh.ply|mesh.obj> ... -o out.vdb`: evolve a sparse level set.
struct LevelSetOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  int resolution = 256;         // meshes: voxels along the longest side
  std::optional<float> iso;     // dense volumes: the iso value that becomes the zero level
  float mcf = 0.0f;             // curvature weight α (voxels² per unit time)
  float speed = 0.0f;           // normal speed F (voxels per unit time, positive grows)
  std::string scheme = "weno5";  // upwind | weno5
  sim::levelset::TilePrecision precision = sim::levelset::TilePrecision::kFloat32;
  std::optional<int> steps;
  std::optional<float> time;
  bool until_converged = false;
  int max_steps = 100000;
  std::string sim = "cpu";
};

// `meniscus reconstruct <points.ply|.obj> --depth D -o out.ply|.vdb`: surface from a point cloud.
struct ReconstructOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  int depth = 8;           // D, the finest level (2^D voxels across the samples' cube)
  int start_depth = 5;     // d, the coarsest level (capped at D)
  float alpha = 0.1f;      // curvature weight α: higher bypasses noise and outliers
  sim::levelset::TilePrecision precision = sim::levelset::TilePrecision::kFloat32;
};

// `meniscus segment <volume> --seed i,j,k[,r]... --lower L --upper U -o out.nrrd|.vdb|.ply`:
// level-set segmentation (sim/levelset/segmentation.h).
struct SegmentOptions {
  std::filesystem::path input;
  std::filesystem::path output;
  std::vector<glm::vec4> seeds;     // voxel indices of the input and a radius in voxels
  std::vector<glm::vec4> seeds_mm;  // millimetres from the first sample, radius in millimetres
  std::optional<glm::vec2> init_mask;  // start from the samples with intensity in [x, y] instead
  std::optional<float> lower, upper;
  float curvature = 0.2f;  // w = 1 − c0
  std::string data_term = "linear";  // linear | tanh
  std::optional<int> steps;  // a fixed number of steps; otherwise until converged
  float rms = 0.02f;         // --until-converged: ITK's MaximumRMSError
  std::optional<float> tile_age;  // --until-converged: also stop when no tile was made for this many voxels of travel
  int max_steps = 10000;
  std::string sim = "cpu";
};

// `meniscus wavelet <volume> --wavelet W --levels L`: volume -> coefficients -> reconstruction.
struct WaveletOptions {
  std::string volume;
  std::string wavelet;  // haar | 5/3 | 9/7 | dd97 | dd137
  int levels = 0;       // required: at least 1
  bool integer = false;  // reversible integer lifting (int32) instead of float
  std::string sim = "cpu";  // cpu | cuda
  std::filesystem::path output;  // raw coefficients, little-endian float32 or int32, x fastest
};

struct Command {
  Verb verb = Verb::Help;
  RunOptions run;
  CaptureOptions capture;
  MeshOptions mesh;
  LevelSetOptions levelset;
  ReconstructOptions reconstruct;
  SegmentOptions segment;
  WaveletOptions wavelet;
};

// Takes main()'s argv as is (char** converts). Verbs are rows of a table in cli.cpp; a later
// verb (levelset, reconstruct, ...) is a row there, a Verb value, its options here and a case
// in main().
Command parse_cli(int argc, const char* const* argv);
std::string usage_text();

}  // namespace meniscus
