#pragma once
// A frame's refracting surface on the CUDA device: its kd-tree, its triangles' corners and
// vertex normals, and the media on either side, for the photons (caustic_photons_cuda.h) and the
// view's tracer (sim/raytrace/whitted_cuda.h) alike. A frame either builds its tree on the
// device from the mesh (build) or copies over a tree the CPU built (upload). The arrays grow as
// the frames need and are reused. CUDA builds only.
#include <cuda_runtime.h>

#include <span>

#include "sim/common/cuda_support.cuh"
#include "sim/kdtree/triangle_build_cuda.h"
#include "sim/kdtree/triangle_kdtree.h"
#include "sim/kdtree/triangle_traversal.h"
#include "sim/photon/optics.h"

namespace meniscus::sim::photon {

class DeviceSurface {
 public:
  // Queues the copies on `stream` (pageable memory is staged at the call: the host arrays may
  // go at once). `indices`: three per triangle; `normals`: per vertex, or empty. Out of device
  // memory: DeviceMemoryError.
  void upload(const kdtree::TriangleKdTree& tree, std::span<const uint32_t> indices, std::span<const glm::vec3> normals,
              const Optics& optics, cudaStream_t stream);

  // The mesh copied over and its kd-tree built on the device (DeviceTriangleKdTree: the CPU's
  // tree, node for node), once the work `stream` has queued is done (it reads the arrays the
  // build rewrites); the normals and media queued on `stream`. Returns when the tree is built.
  void build(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices, std::span<const glm::vec3> normals,
             const Optics& optics, cudaStream_t stream, const kdtree::TriangleKdParams& params = {});

  kdtree::TriangleKdView tree() const { return tree_; }
  const uint32_t* indices() const { return indices_.get(); }
  const glm::vec3* normals() const { return has_normals_ ? normals_.get() : nullptr; }
  OpticsView optics() const { return optics_; }

 private:
  void upload_shading(std::span<const glm::vec3> normals, const Optics& optics, cudaStream_t stream);

  kdtree::DeviceTriangleKdTree built_;
  DeviceArray<glm::vec3> vertices_;
  DeviceArray<kdtree::TriangleKdNode> nodes_;
  DeviceArray<uint32_t> leaf_triangles_;
  DeviceArray<kdtree::LeafTriangle> leaf_geometry_;
  DeviceArray<uint32_t> indices_;
  DeviceArray<glm::vec3> normals_;
  DeviceArray<Medium> media_;
  DeviceArray<Interface> interfaces_;
  DeviceArray<uint8_t> triangle_interface_;
  kdtree::TriangleKdView tree_;
  OpticsView optics_;
  bool has_normals_ = false;
};

}  // namespace meniscus::sim::photon
