#pragma once
// The shared buffer a level set's cube records travel in from a sim backend to the surface
// pass: a 32-byte header, then `capacity` 15-byte records (cube_record.h) from byte 32 on. Both
// backends write exactly these bytes (the CPU into a host-mapped buffer, CUDA into Vulkan memory
// it imported), so the pass reads one layout whoever made the frame. The record count is in the
// header, written by whoever made the records: on the CUDA backend it never leaves the device,
// the pass reads it there (an indirect draw, a bound on its loop).
#include <cstddef>
#include <cstdint>

#include "sim/common/host_device.h"
#include "sim/histopyramid/cube_record.h"

namespace meniscus::sim {

struct CubeRecordHeader {
  uint32_t count;     // records written: min(needed, capacity), 0 when kCubeRecordsTooWide is set
  uint32_t needed;    // records the surface has; above capacity the buffer overflowed and the frame drew `count`
  int32_t origin[3];  // the record set's origin voxel: record position p is voxel origin + p
  float gamma;        // decoding scale (the band's half-width)
  float iso;          // corners hold value - iso
  uint32_t reserved;  // 0, or kCubeRecordsTooWide
};
static_assert(sizeof(CubeRecordHeader) == 32 && alignof(CubeRecordHeader) == 4, "the 32-byte header the surface pass reads");
static_assert(offsetof(CubeRecordHeader, count) == 0 && offsetof(CubeRecordHeader, needed) == 4 &&
                  offsetof(CubeRecordHeader, origin) == 8 && offsetof(CubeRecordHeader, gamma) == 20 &&
                  offsetof(CubeRecordHeader, iso) == 24 && offsetof(CubeRecordHeader, reserved) == 28,
              "the header's byte layout is shared with the shaders");

inline constexpr size_t kCubeRecordsOffset = sizeof(CubeRecordHeader);

// Set in `reserved` by the CUDA backend when the band spans more voxels along an axis than a
// record's 16-bit positions hold. The CPU backend throws InputError instead; the device cannot
// without reading the extent back, so it writes no record (count 0, needed as counted) and the
// host turns the flag into the same error when it next reads the header
// (levelset::check_cube_record_header).
inline constexpr uint32_t kCubeRecordsTooWide = 1u;

// Bytes of a buffer with room for `capacity` records, rounded up to whole 32-bit words (Vulkan
// buffer sizes and fills work in words).
MENISCUS_HD constexpr size_t cube_record_buffer_bytes(uint32_t capacity) {
  return (kCubeRecordsOffset + size_t(capacity) * sizeof(CubeRecord) + 3) / 4 * 4;
}

}  // namespace meniscus::sim
