#pragma once
// NRRD's detached data files as a numbered pattern, "data file: quarter.%d 1 93 1": the file
// names it stands for. The pattern is the user's text, so it is expanded here, never handed to
// printf: only %d (with optional 0 flag and width, "%03d") and %% are conversions.
#include <filesystem>
#include <string>
#include <vector>

namespace meniscus::sim {

// `spec` is the field's value ("slice%03d.raw 1 93 1"); `header` names the file in messages.
// Throws InputError naming the header and field 'data file' for an unsupported conversion, a
// step of 0, a range that never reaches its end, or more files than limits::kMaxVolumeAxis.
std::vector<std::string> expand_slice_pattern(const std::filesystem::path& header, const std::string& spec);

// True when `spec` has the three numbers of a slice range after the pattern.
bool is_slice_pattern(const std::string& spec);

}  // namespace meniscus::sim
