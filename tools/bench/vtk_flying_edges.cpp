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

#include "tools/bench/peers.h"

namespace meniscus::bench {

std::optional<PeerResult> vtk_flying_edges(const sim::Volume& volume, float iso, int threads, int repeat) {
  // Debian's VTK defaults to its Sequential SMP backend; ask for TBB (as we use) so the peer
  // really runs on `threads` threads.
  vtkSMPTools::SetBackend("TBB");
  vtkSMPTools::Initialize(threads);
  vtkNew<vtkImageData> image;
  image->SetDimensions(int(volume.dims.x), int(volume.dims.y), int(volume.dims.z));
  image->SetSpacing(volume.spacing.x, volume.spacing.y, volume.spacing.z);
  image->SetOrigin(volume.origin.x, volume.origin.y, volume.origin.z);
  vtkNew<vtkFloatArray> scalars;
  // VTK reads our samples in place (same x-fastest order); nothing is copied.
  scalars->SetArray(const_cast<float*>(volume.values.data()), vtkIdType(volume.values.size()), 1);
  image->GetPointData()->SetScalars(scalars);
  vtkNew<vtkFlyingEdges3D> flying_edges;
  flying_edges->SetInputData(image);
  flying_edges->SetValue(0, iso);
  flying_edges->ComputeNormalsOn();  // we compute normals too
  flying_edges->ComputeGradientsOff();
  flying_edges->ComputeScalarsOff();
  PeerResult result{};
  for (int r = 0; r < repeat; ++r) {
    flying_edges->Modified();  // force a full re-execution
    const auto start = std::chrono::steady_clock::now();
    flying_edges->Update();
    result.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  vtkPolyData* out = flying_edges->GetOutput();
  result.vertices = uint64_t(out->GetNumberOfPoints());
  result.triangles = uint64_t(out->GetNumberOfPolys());
  return result;
}

const char* vtk_version() {
  static const std::string text = std::string(VTK_VERSION) + ", SMP " + vtkSMPTools::GetBackend() + " x" +
                                  std::to_string(vtkSMPTools::GetEstimatedNumberOfThreads());
  return text.c_str();
}

}  // namespace meniscus::bench
