#include "tools/bench/vtk_mip.h"

#include <vtkAutoInit.h>
#include <vtkCamera.h>
#include <vtkColorTransferFunction.h>
#include <vtkFixedPointVolumeRayCastMapper.h>
#include <vtkImageData.h>
#include <vtkMultiThreader.h>
#include <vtkNew.h>
#include <vtkOpenGLGPUVolumeRayCastMapper.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPiecewiseFunction.h>
#include <vtkPointData.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkUnsignedShortArray.h>
#include <vtkVersion.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sstream>

// Without CMake's vtk_module_autoinit the render window and the GPU mapper's OpenGL classes
// would not be registered with their factories (New() would hand back the abstract class).
VTK_MODULE_INIT(vtkRenderingOpenGL2);
VTK_MODULE_INIT(vtkRenderingVolumeOpenGL2);

namespace meniscus::bench {
namespace {

// The "OpenGL renderer string" line of the window's capabilities: which GL ran the frame
// (llvmpipe under Xvfb here).
std::string renderer_string(vtkRenderWindow* window) {
  std::istringstream report(window->ReportCapabilities());
  const std::string key = "OpenGL renderer string:";
  for (std::string line; std::getline(report, line);)
    if (line.rfind(key, 0) == 0) return line.substr(line.find_first_not_of(' ', key.size()));
  return "unknown";
}

}  // namespace

bool run_vtk_mip(const VtkMipInput& in, VtkMipRun& out) {
  out = {};
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) {
    out.error =
        "no X display: Debian's VTK 9.1 is built for X only (no OSMesa, no EGL), so even an offscreen "
        "render window needs one; run under xvfb-run";
    return false;
  }
  vtkMultiThreader::SetGlobalMaximumNumberOfThreads(in.threads);
  vtkNew<vtkImageData> image;
  image->SetDimensions(int(in.dims[0]), int(in.dims[1]), int(in.dims[2]));
  image->SetSpacing(1.0, 1.0, 1.0);  // the voxel grid itself, as our passes see it
  vtkNew<vtkUnsignedShortArray> scalars;
  const vtkIdType count = vtkIdType(in.dims[0]) * in.dims[1] * in.dims[2];
  scalars->SetArray(const_cast<uint16_t*>(in.values), count, 1);  // in place, not freed by VTK
  image->GetPointData()->SetScalars(scalars);
  const uint16_t highest = *std::max_element(in.values, in.values + count);

  vtkNew<vtkColorTransferFunction> grey;
  grey->AddRGBPoint(0.0, 0.0, 0.0, 0.0);
  grey->AddRGBPoint(std::max(1.0, double(highest)), 1.0, 1.0, 1.0);
  vtkNew<vtkPiecewiseFunction> opacity;  // MIP shows the largest value, opaque
  opacity->AddPoint(0.0, 1.0);
  opacity->AddPoint(std::max(1.0, double(highest)), 1.0);
  vtkNew<vtkVolumeProperty> property;
  property->SetColor(grey);
  property->SetScalarOpacity(opacity);
  property->SetInterpolationTypeToNearest();  // as our exact voxel walk
  property->ShadeOff();

  vtkNew<vtkFixedPointVolumeRayCastMapper> cpu_mapper;
  vtkNew<vtkOpenGLGPUVolumeRayCastMapper> gpu_mapper;
  vtkVolumeMapper* mapper = in.gpu ? static_cast<vtkVolumeMapper*>(gpu_mapper) : cpu_mapper;
  mapper->SetInputData(image);
  mapper->SetBlendModeToMaximumIntensity();
  // One sample per voxel along the ray and one ray per pixel, every frame: no interactive
  // coarsening, so the peer does the work our ray cast does.
  if (in.gpu) {
    gpu_mapper->SetAutoAdjustSampleDistances(0);
    gpu_mapper->SetSampleDistance(1.0f);
  } else {
    cpu_mapper->SetNumberOfThreads(in.threads);
    cpu_mapper->SetAutoAdjustSampleDistances(0);
    cpu_mapper->SetSampleDistance(1.0f);
    cpu_mapper->SetImageSampleDistance(1.0f);
    cpu_mapper->SetInteractiveSampleDistance(1.0f);
  }
  vtkNew<vtkVolume> volume;
  volume->SetMapper(mapper);
  volume->SetProperty(property);

  vtkNew<vtkRenderer> renderer;
  renderer->AddVolume(volume);
  renderer->SetBackground(0.0, 0.0, 0.0);
  // Orthographic along the view axis, one voxel column per pixel (sim::mip::image_coordinates).
  const int axis = in.view_axis;
  const int up = axis == 2 ? 1 : 2;
  double centre[3], position[3], view_up[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) centre[k] = position[k] = 0.5 * (double(in.dims[k]) - 1.0);
  // VTK's image right is the projection direction times up: looking down +y (up z) or -x, -z
  // (up z, y) puts it along our u. A MIP is the same from either side.
  const double toward = axis == 1 ? 1.0 : -1.0;
  position[axis] -= toward * 2.0 * double(std::max({in.dims[0], in.dims[1], in.dims[2]}));
  view_up[up] = 1.0;
  vtkCamera* camera = renderer->GetActiveCamera();
  camera->ParallelProjectionOn();
  camera->SetFocalPoint(centre);
  camera->SetPosition(position);
  camera->SetViewUp(view_up);
  camera->SetParallelScale(0.5 * in.height);
  renderer->ResetCameraClippingRange();

  vtkNew<vtkRenderWindow> window;
  window->SetOffScreenRendering(1);
  window->SetSize(in.width, in.height);
  window->AddRenderer(renderer);
  window->Render();  // warm-up: the mapper's encodings (CPU) or the 3-D texture upload (GPU)
  window->WaitForCompletion();
  out.mapper = mapper->GetClassName();
  out.renderer = renderer_string(window);
  for (int r = 0; r < in.repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    window->Render();
    window->WaitForCompletion();
    out.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  // GetPixelData's rows run bottom-up, as the image's v (the camera's up is +v).
  unsigned char* rgb = window->GetPixelData(0, 0, in.width - 1, in.height - 1, 0);
  out.grey.resize(size_t(in.width) * in.height);
  for (size_t i = 0; i < out.grey.size(); ++i) out.grey[i] = rgb[3 * i];
  delete[] rgb;
  return true;
}

const char* vtk_mip_version() { return VTK_VERSION; }

}  // namespace meniscus::bench
