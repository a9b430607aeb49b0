#include "sim/photon/device_surface.h"

namespace meniscus::sim::photon {
namespace {

// `host` copied to `array` on `stream`; null for an empty span.
template <class T>
T* upload_array(DeviceArray<T>& array, std::span<const T> host, const char* what, cudaStream_t stream) {
  if (host.empty()) return nullptr;
  array.reserve(host.size(), what);
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(array.get(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream));
  return array.get();
}

}  // namespace

void DeviceSurface::upload(const kdtree::TriangleKdTree& tree, std::span<const uint32_t> indices,
                           std::span<const glm::vec3> normals, const Optics& optics, cudaStream_t stream) {
  tree_ = {
      upload_array(nodes_, std::span<const kdtree::TriangleKdNode>(tree.nodes), "the kd-tree's nodes", stream),
      upload_array(leaf_triangles_, std::span<const uint32_t>(tree.leaf_triangles), "the kd-tree's leaves", stream),
      upload_array(leaf_geometry_, std::span<const kdtree::LeafTriangle>(tree.leaf_geometry),
                   "the kd-tree's leaf triangles", stream),
      tree.lo, tree.hi};
  upload_array(indices_, indices, "the triangles' corners", stream);
  has_normals_ = upload_array(normals_, normals, "the vertex normals", stream) != nullptr;
  optics_ = {upload_array(media_, std::span<const Medium>(optics.media), "the media", stream),
             upload_array(interfaces_, std::span<const Interface>(optics.interfaces), "the interfaces", stream),
             upload_array(triangle_interface_, std::span<const uint8_t>(optics.triangle_interface),
                          "the triangles' interfaces", stream)};
}

}  // namespace meniscus::sim::photon
