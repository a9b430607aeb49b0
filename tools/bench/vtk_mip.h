#pragma once
// VTK 9's volume mappers in MIP blend mode behind a C++17-clean interface (VTK 9.1's headers
// are not valid C++20; see vtk_flying_edges.h). mip_bench.cpp times them beside our passes.
#include <cstdint>
#include <string>
#include <vector>

namespace meniscus::bench {

struct VtkMipInput {
  const uint16_t* values;  // x fastest, dims[0] * dims[1] * dims[2] grey levels, read in place
  uint32_t dims[3];
  int view_axis;      // 0, 1, 2: looking along x, y or z; the image axes as sim::mip::image_coordinates
  int width, height;  // the render window: one pixel per voxel column of the image plane
  int threads;
  int repeat;
  bool gpu;  // vtkOpenGLGPUVolumeRayCastMapper instead of vtkFixedPointVolumeRayCastMapper
};

struct VtkMipRun {
  std::string mapper;      // the class that rendered
  std::string renderer;    // the OpenGL renderer string of the window
  std::vector<double> ms;  // one full frame (Render()) per repetition, after one warm-up
  std::string error;       // why nothing was measured, when it was not
  // The last frame's red channel, width x height, row 0 = image v 0: a grey ramp from 0 (black)
  // to the volume's maximum (white), so the bench can check it drew the same MIP.
  std::vector<uint8_t> grey;
};

// False with `out.error` set when the peer cannot run: built without VTK, or no X display
// (Debian's VTK 9.1 has neither OSMesa nor EGL, so even offscreen rendering needs one).
bool run_vtk_mip(const VtkMipInput& in, VtkMipRun& out);
const char* vtk_mip_version();

}  // namespace meniscus::bench
