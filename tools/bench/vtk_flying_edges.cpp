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

namespace {

class VtkFlyingEdges final : public FlyingEdgesRunner {
 public:
  explicit VtkFlyingEdges(const FlyingEdgesInput& in) {
    // Debian's VTK defaults to its Sequential SMP backend; ask for TBB (as we use) so the peer
    // really runs on `threads` threads.
    vtkSMPTools::SetBackend("TBB");
    vtkSMPTools::Initialize(in.threads);
    image_->SetDimensions(int(in.dims[0]), int(in.dims[1]), int(in.dims[2]));
    image_->SetSpacing(in.spacing[0], in.spacing[1], in.spacing[2]);
    image_->SetOrigin(in.origin[0], in.origin[1], in.origin[2]);
    // VTK reads our samples in place (same x-fastest order); nothing is copied.
    scalars_->SetArray(const_cast<float*>(in.values), vtkIdType(in.dims[0]) * in.dims[1] * in.dims[2], 1);
    image_->GetPointData()->SetScalars(scalars_);
    filter_->SetInputData(image_);
    filter_->SetValue(0, in.iso);
    filter_->ComputeNormalsOn();  // we compute normals too
    filter_->ComputeGradientsOff();
    filter_->ComputeScalarsOff();
  }

  double run() override {
    filter_->Modified();  // force a full re-execution
    const auto start = std::chrono::steady_clock::now();
    filter_->Update();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  uint64_t vertices() const override { return uint64_t(filter_->GetOutput()->GetNumberOfPoints()); }
  uint64_t triangles() const override { return uint64_t(filter_->GetOutput()->GetNumberOfPolys()); }

 private:
  vtkNew<vtkImageData> image_;
  vtkNew<vtkFloatArray> scalars_;
  vtkNew<vtkFlyingEdges3D> filter_;
};

}  // namespace

std::unique_ptr<FlyingEdgesRunner> FlyingEdgesRunner::create(const FlyingEdgesInput& in) {
  return std::make_unique<VtkFlyingEdges>(in);
}

const char* vtk_flying_edges_version() {
  static const std::string text = std::string(VTK_VERSION) + ", SMP " + vtkSMPTools::GetBackend() + " x" +
                                  std::to_string(vtkSMPTools::GetEstimatedNumberOfThreads());
  return text.c_str();
}

}  // namespace meniscus::bench
