#include <vtkFlyingEdges3D.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkSMPTools.h>
#include <vtkVersion.h>

#include <chrono>

#include "tools/bench/peers.h"

namespace meniscus::bench {

std::optional<PeerResult> vtk_flying_edges(const sim::Volume& volume, float iso, int threads) {
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
  const auto start = std::chrono::steady_clock::now();
  flying_edges->Update();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  vtkPolyData* out = flying_edges->GetOutput();
  return PeerResult{ms, uint64_t(out->GetNumberOfPoints()), uint64_t(out->GetNumberOfPolys())};
}

const char* vtk_version() { return VTK_VERSION; }

}  // namespace meniscus::bench
