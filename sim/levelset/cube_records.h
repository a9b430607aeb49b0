#pragma once
// Cube records (Jalba et al. 2013, §3.4; format in sim/histopyramid/cube_record.h) generated
// straight from the sorted tile list: one record per cell whose eight corners straddle the iso
// value, cells across tile borders included, without ever forming a dense volume. What a
// renderer uploads per frame for an evolving level set: 15 bytes per crossed cell instead of
// 4 bytes per voxel of the bounding box.
//
// The field the records describe is φ in active tiles and ±γ elsewhere. Which sign a voxel of
// a missing tile gets must not depend on which tile asks (two cells sharing that corner would
// then triangulate their common face differently and the surface would crack), so it is a
// function of the missing tile alone: the border flag facing it of its first active neighbour
// in a fixed order, faces before edges before corners (the nearer the neighbour, the more its
// flag says about the missing tile). Each crossed cell with at least one corner in an active
// tile is written exactly once, by the active tile of smallest key among those holding its
// corners; cells whose corners all lie in missing tiles never straddle in a level set whose
// band holds every voxel with |φ| < γ.
#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>

#include "sim/histopyramid/cube_record.h"
#include "sim/histopyramid/cube_record_buffer.h"
#include "sim/levelset/sorted_tile_list.h"

namespace meniscus::sim::levelset {

// Fills `out` with the records of φ = iso, in a deterministic order (tiles in list order, cells
// in (z, y, x) order within each), built on TBB threads over chunks of the active list. The
// record origin is one voxel below the band's lowest tile corner. Throws InputError when |iso|
// is not inside the band (γ) or when the band spans more than 65536 voxels along an axis (the
// records' 16-bit positions), naming `what`.
void generate_cube_records(const SortedTileList& list, CubeRecordSet& out, float iso = 0.0f,
                           const char* what = "level set");

// The same records written into the shared-buffer layout of cube_record_buffer.h: the header
// at `buffer`, then the first min(needed, capacity) records in the order above; `needed` counts
// them all. `buffer` holds cube_record_buffer_bytes(capacity) bytes; nothing beyond the written
// records is touched. Throws as generate_cube_records does (the CUDA twin,
// gpu_stl_records.h, flags what it cannot throw in the header instead). Returns `needed`.
uint32_t write_cube_records(const SortedTileList& list, float iso, std::byte* buffer, uint32_t capacity,
                            const char* what = "level set");

// Throws the InputError naming `what` that a header written on the device stands for
// (kCubeRecordsTooWide); returns for any other header, an overflowed one included (count <
// needed is a frame drawn short, not an error).
void check_cube_record_header(const CubeRecordHeader& header, const char* what = "level set");

// Throws InputError naming `what` unless |iso| < gamma: records quantise φ - iso within the band.
void require_iso_in_band(float iso, float gamma, const char* what);

// The record position of base voxel `voxel` for a set whose origin is `origin`; InputError
// naming `what` when it does not fit 16 bits per axis.
glm::uvec3 record_position_of(glm::ivec3 voxel, glm::ivec3 origin, const char* what);

}  // namespace meniscus::sim::levelset
