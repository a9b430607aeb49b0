// ITK's side of `meniscus-bench segment` (itk_segment.h). The threader is ITK's Platform one:
// the default pool threader is known to deadlock with the sparse-field filters.
#include "tools/bench/itk_segment.h"

#include <itkImage.h>
#include <itkImportImageFilter.h>
#include <itkMultiThreaderBase.h>
#include <itkParallelSparseFieldLevelSetImageFilter.h>
#include <itkThresholdSegmentationLevelSetFunction.h>
#include <itkThresholdSegmentationLevelSetImageFilter.h>
#include <itkVersion.h>

#include <chrono>

namespace meniscus::bench {
namespace {

using Image = itk::Image<float, 3>;

Image::Pointer import(const float* values, const ItkSegmentInput& in) {
  auto image = Image::New();
  Image::RegionType region;
  Image::SizeType size = {{in.dims[0], in.dims[1], in.dims[2]}};
  region.SetSize(size);
  image->SetRegions(region);
  const double spacing[3] = {in.spacing[0], in.spacing[1], in.spacing[2]};
  image->SetSpacing(spacing);
  image->Allocate();
  std::copy_n(values, size_t(in.dims[0]) * in.dims[1] * in.dims[2], image->GetBufferPointer());
  return image;
}

// `sign`: -1 where the filter's level set is negative inside (the serial sparse field), +1
// where it is positive inside (ParallelSparseFieldLevelSetImageFilter, as its header says).
void read_mask(const Image* output, float sign, ItkSegmentRun& out) {
  const size_t n = output->GetBufferedRegion().GetNumberOfPixels();
  out.mask.resize(n);
  const float* phi = output->GetBufferPointer();
  for (size_t i = 0; i < n; ++i) out.mask[i] = sign * phi[i] > 0.0f ? 1 : 0;
}

}  // namespace

bool run_itk_segment(const ItkSegmentInput& in, ItkSegmentRun& out) {
  try {
    itk::MultiThreaderBase::SetGlobalDefaultThreader(itk::MultiThreaderBase::ThreaderEnum::Platform);
    itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(in.threads);
    const Image::Pointer feature = import(in.volume, in);
    const Image::Pointer initial = import(in.initial, in);
    using Clock = std::chrono::steady_clock;
    if (in.threads <= 1) {
      using Filter = itk::ThresholdSegmentationLevelSetImageFilter<Image, Image>;
      auto filter = Filter::New();
      filter->SetInput(initial);
      filter->SetFeatureImage(feature);
      filter->SetLowerThreshold(in.lower);
      filter->SetUpperThreshold(in.upper);
      filter->SetPropagationScaling(1.0 - in.curvature);
      filter->SetCurvatureScaling(in.curvature);
      filter->SetAdvectionScaling(0.0);
      filter->SetMaximumRMSError(in.rms);
      filter->SetNumberOfIterations(in.max_iterations);
      filter->SetIsoSurfaceValue(0.0);
      filter->SetNumberOfWorkUnits(1);
      const auto start = Clock::now();
      filter->Update();
      out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      out.filter = "ThresholdSegmentationLevelSetImageFilter";
      out.iterations = int(filter->GetElapsedIterations());
      out.rms = filter->GetRMSChange();
      read_mask(filter->GetOutput(), -1.0f, out);
      return true;
    }
    // The parallel sparse field with the same level-set function (its speed image built first,
    // inside the timed span as the serial filter builds it inside Update()). It keeps the
    // inside positive: the initial level set is negated, and with it the propagation weight,
    // so that the data term still grows the inside (the curvature term is the same either way).
    std::vector<float> negated(in.initial, in.initial + size_t(in.dims[0]) * in.dims[1] * in.dims[2]);
    for (float& v : negated) v = -v;
    const Image::Pointer positive_inside = import(negated.data(), in);
    using Function = itk::ThresholdSegmentationLevelSetFunction<Image, Image>;
    using Filter = itk::ParallelSparseFieldLevelSetImageFilter<Image, Image>;
    const auto start = Clock::now();
    auto function = Function::New();
    function->SetFeatureImage(feature);
    function->SetLowerThreshold(in.lower);
    function->SetUpperThreshold(in.upper);
    function->SetPropagationWeight(-(1.0 - in.curvature));
    function->SetCurvatureWeight(in.curvature);
    function->SetAdvectionWeight(0.0);
    function->AllocateSpeedImage();
    function->CalculateSpeedImage();
    Function::RadiusType radius;
    radius.Fill(1);
    function->Initialize(radius);
    auto filter = Filter::New();
    filter->SetDifferenceFunction(function);
    filter->SetInput(positive_inside);
    filter->SetIsoSurfaceValue(0.0);
    filter->SetMaximumRMSError(in.rms);
    filter->SetNumberOfIterations(in.max_iterations);
    filter->SetNumberOfWorkUnits(in.threads);
    filter->Update();
    out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    out.filter = "ParallelSparseFieldLevelSetImageFilter";
    out.iterations = int(filter->GetElapsedIterations());
    out.rms = filter->GetRMSChange();
    read_mask(filter->GetOutput(), 1.0f, out);
    return true;
  } catch (const std::exception& e) {
    out.error = e.what();
    return false;
  }
}

const char* itk_version() { return itk::Version::GetITKVersion(); }

}  // namespace meniscus::bench
