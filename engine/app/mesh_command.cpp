#include "engine/app/mesh_command.h"
#include "engine/app/level_set_volume.h"

#include <chrono>
#include <cstdio>
#include <cstring>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/input_limits.h"
#include "passes/surface/gpu_extraction.h"
#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/marching_cubes_cuda.h"
#include "sim/histopyramid/record_mesh.h"
#include "sim/histopyramid/vertex_numbering.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/levelset/cube_records.h"
#include "sim/levelset/vdb_io.h"

namespace meniscus {

namespace {

// A triangle soup whose corners carry edge ids (the GPU paths' output) as an indexed mesh: one
// vertex per distinct edge, numbered in edge order like the CPU path's.
sim::IndexedMesh mesh_from_soup(const std::vector<glm::vec3>& positions, const std::vector<glm::vec3>& normals,
                                const std::vector<uint64_t>& edges) {
  sim::VertexNumbering numbering;
  std::vector<uint64_t> pairs, scratch;
  sim::number_vertices(edges, 32, numbering, pairs, scratch);
  sim::IndexedMesh mesh;
  mesh.positions.resize(numbering.unique_edges.size());
  mesh.normals.resize(numbering.unique_edges.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    mesh.positions[numbering.vertex_of_key[k]] = positions[k];
    mesh.normals[numbering.vertex_of_key[k]] = normals[k];
  }
  mesh.triangles.resize(positions.size() / 3);
  std::memcpy(mesh.triangles.data(), numbering.vertex_of_key.data(), numbering.vertex_of_key.size() * sizeof(uint32_t));
  return mesh;
}

// The surface extracted on the Vulkan device, read back and turned into an indexed mesh.
sim::IndexedMesh extract_with_vulkan(const sim::Volume& volume, float iso, const std::string& device, bool validation) {
  Context context(ContextOptions{.validation = validation, .preferred_device = device});
  const glm::vec2 range = volume.range();
  if (iso < range.x || iso > range.y)  // the GPU path would only return nothing
    return sim::MarchingCubes().extract(volume, iso);  // throws the same InputError as the CPU path
  passes::GpuHistoPyramid pyramid(context, volume, volume.origin, volume.spacing);
  const passes::GpuSoup soup = passes::extract_on_gpu(context, pyramid, iso);
  std::printf("time: build + extract %.1f ms on %s (%.0f M cells/s, vulkan)\n", soup.gpu_ms, context.info().name.c_str(),
              soup.gpu_ms > 0 ? volume.cell_count() / soup.gpu_ms / 1e3 : 0.0);
  sim::IndexedMesh mesh = mesh_from_soup(soup.positions, soup.normals, soup.edges);
  if (context.validation_error_count()) throw DeviceError("Vulkan validation errors during extraction");
  return mesh;
}

// The surface extracted on the CUDA device (1D chunk/layer pyramid), read back likewise. Throws
// DeviceError saying why when CUDA is not built or no device answers.
sim::IndexedMesh extract_with_cuda(const sim::Volume& volume, float iso) {
  sim::CudaMarchingCubes cuda(volume);
  const sim::CudaSoup soup = cuda.extract(iso);
  std::printf("time: classify + build + extract %.2f ms on %s (%.0f M cells/s, cuda)\n", soup.gpu_ms,
              cuda.device_name().c_str(), soup.gpu_ms > 0 ? volume.cell_count() / soup.gpu_ms / 1e3 : 0.0);
  return mesh_from_soup(soup.positions, soup.normals, soup.edges);
}

// A .vdb level set on the CPU: its cube records (Jalba et al. §3.4, straight from the tile list,
// as the level-set scenes draw it) triangulated into an indexed mesh. As for every volume,
// inside is where the value is at least --iso, and a level set's value is -φ: the surface is
// φ = -iso.
sim::IndexedMesh extract_level_set_records(const std::string& file, float iso) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const sim::levelset::LevelSetFile level_set = sim::levelset::read_vdb(file);
  const auto loaded = Clock::now();
  sim::CubeRecordSet records;
  sim::levelset::generate_cube_records(*level_set.list, records, -iso, file.c_str());
  const auto generated = Clock::now();
  const glm::vec3 origin = glm::vec3(level_set.voxel_offset + records.origin) * level_set.voxel_size;
  sim::IndexedMesh mesh = sim::extract_record_mesh(records, origin, level_set.voxel_size);
  const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  std::printf("%s: level set, %zu tiles, iso %g -> %zu cube records (%zu bytes)\n", file.c_str(), level_set.list->size(),
              double(iso), records.records.size(), records.records.size() * sizeof(sim::CubeRecord));
  std::printf("time: load %.1f ms, records %.1f ms, extract %.1f ms (cpu)\n", ms(start, loaded), ms(loaded, generated),
              ms(generated, Clock::now()));
  return mesh;
}

}  // namespace

int mesh_volume(const MeshOptions& options) {
  const limits::AllocationScope scope("meshing " + options.volume);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  // A .vdb is a level set: on the CPU through its cube records; the GPU paths take the zero
  // iso-surface of a dense re-sample of the band.
  const bool vdb = options.volume.ends_with(".vdb");
  if (vdb && options.sim == "cpu") {
    const sim::IndexedMesh mesh = extract_level_set_records(options.volume, *options.iso);
    sim::write_mesh(options.output, mesh);
    std::printf("%zu triangles, %zu vertices -> %s\n", mesh.triangles.size(), mesh.positions.size(),
                options.output.string().c_str());
    return 0;
  }
  const sim::Volume volume = vdb ? load_vdb_volume(options.volume) : sim::load_volume(options.volume);
  const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  std::printf("%s: %ux%ux%u samples, %llu cells, iso %g\n", volume.source.c_str(), volume.dims.x, volume.dims.y,
              volume.dims.z, static_cast<unsigned long long>(volume.cell_count()), double(*options.iso));
  sim::IndexedMesh mesh;
  if (options.sim == "vulkan") {
    mesh = extract_with_vulkan(volume, *options.iso, options.device, options.validation);
  } else if (options.sim == "cuda") {
    mesh = extract_with_cuda(volume, *options.iso);
  } else {
    sim::McStats stats;
    mesh = sim::MarchingCubes().extract(volume, *options.iso, &stats);
    const double ms = stats.classify_ms + stats.scan_ms + stats.extract_ms;
    std::printf("time: load %.1f ms, classify %.1f ms, scan %.1f ms, extract %.1f ms (%.0f M cells/s, cpu)\n", load_ms,
                stats.classify_ms, stats.scan_ms, stats.extract_ms, ms > 0 ? stats.cells / ms / 1e3 : 0.0);
  }
  sim::write_mesh(options.output, mesh);
  std::printf("%zu triangles, %zu vertices -> %s\n", mesh.triangles.size(), mesh.positions.size(),
              options.output.string().c_str());
  return 0;
}

}  // namespace meniscus
