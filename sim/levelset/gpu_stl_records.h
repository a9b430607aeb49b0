#pragma once
// Cube records (cube_records.h) made on the device from a GpuSortedTileList, straight into a
// shared buffer in cube_record_buffer.h's layout, byte for byte what the CPU's
// write_cube_records writes for the same list. The record count never comes back to the host:
// the header is written by the device and read there by whoever draws the records.
//
// Built with MENISCUS_CUDA (gpu_stl_records_cuda.cu), else gpu_stl_absent.cpp (throws
// DeviceError saying so).
#include <cstdint>

#include "sim/histopyramid/cube_record_buffer.h"
#include "sim/levelset/gpu_stl_list.h"

namespace meniscus::sim::levelset {

// Queues on the list's stream (the default stream, as every GPU-STL pass): a per-tile count,
// a device prefix sum, the record origin as a min-reduction over the tile coordinates, the
// records, and the header. Returns without waiting for any of it. `device_buffer` holds
// cube_record_buffer_bytes(capacity) bytes of device memory; records beyond `capacity` are
// not written and the header's `needed` says how many there were.
//
// Throws InputError naming `what` when |iso| is not inside the band (a host-side check). A band
// wider than the records' 16-bit positions cannot be a host error without a read-back: the
// header then has count 0 and kCubeRecordsTooWide in `reserved`, which
// check_cube_record_header (cube_records.h) turns into the CPU's error. A call whose scratch
// must grow (more tiles than any earlier call or tile management) frees the old scratch, and
// cudaFree waits for the device: once per growth, never in a steady frame.
void write_cube_records(GpuSortedTileList& list, float iso, void* device_buffer, uint32_t capacity,
                        const char* what = "level set");

}  // namespace meniscus::sim::levelset
