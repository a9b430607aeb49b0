#include <vtkFlyingEdges3D.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSMPTools.h>
#include <vtkVersion.h>

#include <chrono>
#include <string>

#include "tools/bench/vtk_flying_edges.h"

namespace meniscus::bench {

bool run_vtk_flying_edges(const FlyingEdgesInput& in, FlyingEdgesRun& result) {
  // Debian's VTK defaults to its Sequential SMP backend; ask for TBB (as we use) so the peer
  // really runs on `threads` threads.
  vtkSMPTools::SetBackend("TBB");
  vtkSMPTools::Initialize(in.threads);
  vtkNew<vtkImageData> image;
  image->SetDimensions(int(in.dims[0]), int(in.dims[1]), int(in.dims[2]));
  image->SetSpacing(in.spacing[0], in.spacing[1], in.spacing[2]);
  image->SetOrigin(in.origin[0], in.origin[1], in.origin[2]);
  vtkNew<vtkFloatArray> scalars;
  // VTK reads our samples in place (same x-fastest order); nothing is copied.
  scalars->SetArray(const_cast<float*>(in.values), vtkIdType(in.dims[0]) * in.dims[1] * in.dims[2], 1);
  image->GetPointData()->SetScalars(scalars);
  vtkNew<vtkFlyingEdges3D> flying_edges;
  flying_edges->SetInputData(image);
  flying_edges->SetValue(0, in.iso);
  flying_edges->ComputeNormalsOn();  // we compute normals too
  flying_edges->ComputeGradientsOff();
  flying_edges->ComputeScalarsOff();
  result = {};
  for (int r = 0; r < in.repeat; ++r) {
    flying_edges->Modified();  // force a full re-execution
    const auto start = std::chrono::steady_clock::now();
    flying_edges->Update();
    result.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  vtkPolyData* out = flying_edges->GetOutput();
  result.vertices = uint64_t(out->GetNumberOfPoints());
  result.triangles = uint64_t(out->GetNumberOfPolys());
  return true;
}

const char* vtk_flying_edges_version() {
  static const std::string text = std::string(VTK_VERSION) + ", SMP " + vtkSMPTools::GetBackend() + " x" +
                                  std::to_string(vtkSMPTools::GetEstimatedNumberOfThreads());
  return text.c_str();
}

}  // namespace meniscus::bench
