#pragma once
// Reading NIfTI-1 volumes (.nii, and gzip-compressed .nii.gz), the format MR data comes in.
// Single-file ("n+1") images of up to three dimensions (a fourth of size 1 is accepted), any
// byte order, integer or float samples, with the header's intensity scaling applied. The
// world placement is kept simple: spacing from pixdim, origin at the first sample (no qform or
// sform rotation). Every failure is an InputError naming the file and the header field.
#include <filesystem>

#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

Volume load_nifti(const std::filesystem::path& path);

// Whether `path` names a NIfTI file by its suffix (.nii or .nii.gz).
bool is_nifti_path(const std::filesystem::path& path);

}  // namespace meniscus::sim
