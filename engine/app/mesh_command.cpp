#include "engine/app/mesh_command.h"

#include <chrono>
#include <cstdio>

#include "sim/histopyramid/marching_cubes.h"
#include "sim/histopyramid/volume_io.h"

namespace meniscus {

int mesh_volume(const MeshOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const sim::Volume volume = sim::load_volume(options.volume);
  const double load_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  sim::McStats stats;
  const sim::IndexedMesh mesh = sim::MarchingCubes().extract(volume, *options.iso, &stats);
  sim::write_mesh(options.output, mesh);
  const double extract_ms = stats.classify_ms + stats.build_ms + stats.extract_ms;
  std::printf("%s: %ux%ux%u samples, %llu cells, iso %g\n", volume.source.c_str(), volume.dims.x, volume.dims.y,
              volume.dims.z, static_cast<unsigned long long>(stats.cells), double(*options.iso));
  std::printf("%zu triangles, %zu vertices -> %s\n", mesh.triangles.size(), mesh.positions.size(),
              options.output.string().c_str());
  std::printf("time: load %.1f ms, classify %.1f ms, build %.1f ms, extract %.1f ms (%.0f M cells/s, cpu)\n", load_ms,
              stats.classify_ms, stats.build_ms, stats.extract_ms, extract_ms > 0 ? stats.cells / extract_ms / 1e3 : 0.0);
  return 0;
}

}  // namespace meniscus
