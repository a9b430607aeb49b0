#pragma once
// Reading dense volumes: NRRD (.nrrd / .nhdr, raw encoding, detached data files and file
// patterns such as "quarter.%d 1 93 1"), legacy VTK STRUCTURED_POINTS (.vtk, ASCII or
// BINARY big-endian), NIfTI-1 (.nii, .nii.gz; nifti_io.h) and headerless raw files with the
// dimensions and type given.
// Every failure is an InputError naming the file and what was wrong with it.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

// Dispatches on the suffix (.nrrd, .nhdr, .vtk, .nii, .nii.gz); analytic fields as "cayley:128".
Volume load_volume(const std::string& source);

Volume load_nrrd(const std::filesystem::path& path);
Volume load_vtk_structured_points(const std::filesystem::path& path);
// A label mask (one byte a sample, x fastest) as a raw NRRD with the volume's sizes, spacings
// and origin, which every reader above (and 3D Slicer, ITK, teem) opens. Throws InputError
// naming the file when it cannot be written.
void write_nrrd_mask(const std::filesystem::path& path, const Volume& grid, const std::vector<uint8_t>& mask);

// type: uint8, int16, uint16, int32, float32; little-endian.
Volume load_raw(const std::filesystem::path& path, glm::uvec3 dims, const std::string& type);

}  // namespace meniscus::sim
