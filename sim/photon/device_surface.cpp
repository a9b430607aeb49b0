#include "sim/photon/device_surface.h"

#include "sim/kdtree/triangle_build_errors.h"

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
  upload_shading(normals, optics, stream);
}

void DeviceSurface::build(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices,
                          std::span<const glm::vec3> normals, const Optics& optics, cudaStream_t stream,
                          const kdtree::TriangleKdParams& params) {
  kdtree::validate_index_count(indices.size());
  // The build runs on the legacy stream and waits for itself; before it, the last frame's
  // photons and trace must be done with the arrays it rewrites.
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  upload_array(vertices_, vertices, "the mesh's vertices", nullptr);
  upload_array(indices_, indices, "the triangles' corners", nullptr);
  built_.build(vertices_.get(), uint32_t(vertices.size()), indices_.get(), uint32_t(indices.size() / 3), params);
  tree_ = built_.view();
  upload_shading(normals, optics, stream);
}

void DeviceSurface::upload_shading(std::span<const glm::vec3> normals, const Optics& optics, cudaStream_t stream) {
  has_normals_ = upload_array(normals_, normals, "the vertex normals", stream) != nullptr;
  optics_ = {upload_array(media_, std::span<const Medium>(optics.media), "the media", stream),
             upload_array(interfaces_, std::span<const Interface>(optics.interfaces), "the interfaces", stream),
             upload_array(triangle_interface_, std::span<const uint8_t>(optics.triangle_interface),
                          "the triangles' interfaces", stream)};
}

}  // namespace meniscus::sim::photon
