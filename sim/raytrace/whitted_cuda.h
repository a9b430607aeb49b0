#pragma once
// The Whitted tracer (whitted_tracer.h) on a CUDA device: a thread per pixel running the CPU
// backend's very paths (whitted_path.h) through the very kd-tree (triangle_traversal.h), the
// image written straight into device memory (a CUDA-shared buffer the frame graph composites).
#include <glm/vec4.hpp>
#include <memory>

#include "sim/kdtree/triangle_kdtree.h"
#include "sim/raytrace/whitted_tracer.h"

namespace meniscus::sim::photon {
class DeviceSurface;
}

namespace meniscus::sim::raytrace {

class WhittedCuda {
 public:
  // DeviceError when built without CUDA or when no CUDA device answers.
  WhittedCuda();
  ~WhittedCuda();
  WhittedCuda(const WhittedCuda&) = delete;
  WhittedCuda& operator=(const WhittedCuda&) = delete;

  // Queues on `stream` (a cudaStream_t; null: the legacy stream) the trace of `scene` into
  // `out`: params.width x params.height RGBA pixels in device memory, alpha 1, row 0 at the top.
  // `surface` is the scene's surface on the device, uploaded on the same stream: the scene's
  // surface, triangles, normals and optics are checked but not read. The caustic on the floor
  // (scene.caustics' grid) is `caustic` where given, the irradiance in device memory (made on
  // the same stream: photon/caustic_map_cuda.h), else scene.caustics' irradiance copied over.
  // InputError as trace_image; DeviceMemoryError when the device is full.
  void trace(const photon::DeviceSurface& surface, const TraceScene& scene, const TraceCamera& camera,
             const TraceParams& params, glm::vec4* out, void* stream, const float* caustic = nullptr);

  // The ray counts of the last trace (waiting for it); ms is 0.
  TraceStats last_stats() const;

 private:
  struct Device;
  std::unique_ptr<Device> device_;
};

// trace_image on the device, downloaded (tests, the benchmark): stats.ms is the wall time of the
// copies, the trace and the download. Errors as WhittedCuda.
TraceImage trace_image_cuda(const kdtree::TriangleKdTree& tree, const TraceScene& scene, const TraceCamera& camera,
                            const TraceParams& params);

// A frame wholly on the device, downloaded (the benchmark): the scene's mesh copied over and its
// tree built there (`build_ms`, the wall time of both), then traced (stats.ms: the wall time until
// the trace is done, without the download). Errors as WhittedCuda and the device build.
TraceImage build_and_trace_cuda(const TraceScene& scene, const TraceCamera& camera, const TraceParams& params,
                                double& build_ms);

}  // namespace meniscus::sim::raytrace
