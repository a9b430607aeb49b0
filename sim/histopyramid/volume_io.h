#pragma once
// Reading dense volumes: NRRD (.nrrd / .nhdr, raw encoding, detached data files and file
// patterns such as "quarter.%d 1 93 1"), legacy VTK STRUCTURED_POINTS (.vtk, ASCII or
// BINARY big-endian) and headerless raw files with the dimensions and type given.
// Every failure is an InputError naming the file and what was wrong with it.
#include <filesystem>
#include <string>

#include "sim/histopyramid/volume.h"

namespace meniscus::sim {

// Dispatches on the suffix (.nrrd, .nhdr, .vtk); analytic fields as "cayley:128".
Volume load_volume(const std::string& source);

Volume load_nrrd(const std::filesystem::path& path);
Volume load_vtk_structured_points(const std::filesystem::path& path);
// type: uint8, int16, uint16, int32, float32; little-endian.
Volume load_raw(const std::filesystem::path& path, glm::uvec3 dims, const std::string& type);

}  // namespace meniscus::sim
