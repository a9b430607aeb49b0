#pragma once
// What Meniscus accepts from a file or a scene, stated once.
//
// Every reader checks the sizes a file *declares* against these limits, and against the file's
// own length and the memory available, before it allocates anything: a 73-byte header must
// not be able to ask for gigabytes. Each refusal is an InputError naming the file, the field,
// the declared value and the limit, e.g.
//   head.nrrd: field 'sizes': declares 8192 x 8192 x 8192 = 549755813888 samples, over the limit
//   of 1073741824 samples (engine/core/input_limits.h)
// Raise a limit here, not in a reader.
#include <cstdint>
#include <filesystem>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/error.h"

namespace meniscus::limits {

// Dense volumes (.nrrd, .nhdr, .vtk, raw): each axis, and all samples together (floats in memory).
inline constexpr uint64_t kMaxVolumeAxis = 8192;
inline constexpr uint64_t kMaxVolumeSamples = uint64_t(1) << 30;  // 4 GiB of float samples
// Voxel spacing of volumes and voxel size of level sets. OpenVDB's transform refuses a
// determinant under 3e-15 (spacing³), so smaller spacings could be read but never written.
inline constexpr double kMinSpacing = 1e-4;
inline constexpr double kMaxSpacing = 1e6;
// Meshes and point clouds (.ply, .obj): triangles are indexed with 32 bits.
inline constexpr uint64_t kMaxMeshVertices = uint64_t(1) << 28;
inline constexpr uint64_t kMaxMeshFaces = uint64_t(1) << 29;
inline constexpr uint64_t kMaxPolygonCorners = 1024;             // a PLY face list longer than this is corrupt
inline constexpr uint64_t kMaxPlyListItems = uint64_t(1) << 16;  // any other PLY list
inline constexpr uint64_t kMaxPlyElementProperties = 1024;
// Particles of a scene stage (ballistic, SPH), and the work a stage may do before its first
// frame: particles x warm-up steps (a ballistic fountain ages every particle on creation).
inline constexpr uint64_t kMaxParticles = uint64_t(1) << 26;
inline constexpr uint64_t kMaxParticleWarmUpSteps = 10'000'000'000;  // about 30 s on two cores
// Sparse level sets read from .vdb: active voxels (tiles expanded), and the file itself.
inline constexpr uint64_t kMaxLevelSetVoxels = uint64_t(1) << 28;
inline constexpr uint64_t kMaxVdbFileBytes = uint64_t(4) << 30;
// Any file read whole into memory.
inline constexpr uint64_t kMaxFileBytes = uint64_t(16) << 30;

// Throws InputError "<file>: <what>", the shape of every reader's message.
[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what);

// Throws InputError "<file>: field '<field>': declares <declared> <what>, over the limit of <limit>
// <what> (engine/core/input_limits.h)" when declared > limit.
void check_declared(const std::filesystem::path& file, std::string_view field, uint64_t declared, uint64_t limit,
                    std::string_view what);
// Same, with the declared value spelt as the file gave it ("8192 x 8192 x 8192 = 549755813888").
void check_declared(const std::filesystem::path& file, std::string_view field, const std::string& declared_text,
                    uint64_t declared, uint64_t limit, std::string_view what);

// Bytes of memory available to this process now (MemAvailable; the physical memory where that
// is unknown).
uint64_t available_memory_bytes();
// Throws InputError naming file, field and both sizes when `bytes` exceed available memory.
void check_memory(const std::filesystem::path& file, std::string_view field, uint64_t bytes, std::string_view what);

// The file exists and is a regular file (not a device such as /dev/zero, a pipe or a
// directory), with a name the system accepts; `role` says what it is for ("data file").
// Returns its size. Throws InputError naming the file otherwise.
uint64_t require_regular_file(const std::filesystem::path& file, std::string_view role = "file");

// "1e-04", "1e+06", "0.5": numbers in messages, as %g writes them.
std::string number_text(double value);

// "1.5 GB": sizes in messages.
std::string bytes_text(uint64_t bytes);

// Resizes `v` to n elements; an allocation failure becomes an InputError naming the file and
// what was being allocated, rather than an anonymous std::bad_alloc.
template <class T>
void resize_or_fail(std::vector<T>& v, uint64_t n, const std::filesystem::path& file, std::string_view what) {
  try {
    v.resize(size_t(n));
  } catch (const std::bad_alloc&) {
    throw InputError(file.string() + ": cannot allocate " + bytes_text(n * sizeof(T)) + " for " + std::string(what));
  } catch (const std::length_error&) {
    throw InputError(file.string() + ": cannot allocate " + bytes_text(n * sizeof(T)) + " for " + std::string(what));
  }
}

// What the running command is allocating for, kept per thread, innermost last: main() names it
// when an allocation fails anywhere (std::bad_alloc), so the message says what was asked for.
class AllocationScope {
 public:
  explicit AllocationScope(std::string what);
  ~AllocationScope();
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;
  // The innermost scope an exception unwound through last on this thread ("reading cloud.ply"),
  // "" when none: by the time main() catches, the scopes are gone, so they leave this behind.
  static std::string unwound();

 private:
  int exceptions_at_entry_;
};

}  // namespace meniscus::limits
