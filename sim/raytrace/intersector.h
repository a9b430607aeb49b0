#pragma once
// What a ray tracer asks of an acceleration structure: the closest hit (with its triangle's
// normal), for one ray or a batch, and whether anything is hit at all. The kd-tree answers here (KdTreeIntersector);
// the benchmark puts Embree's BVH behind the same interface, so both trace exactly the same rays.
#include <span>

#include "sim/kdtree/triangle_kdtree.h"
#include "sim/kdtree/triangle_packet.h"
#include "sim/kdtree/triangle_ray.h"

namespace meniscus::sim::raytrace {

using kdtree::Ray;
using kdtree::RayHit;

class Intersector {
 public:
  virtual ~Intersector() = default;
  virtual RayHit closest(const Ray& ray) const = 0;
  virtual bool any(const Ray& ray) const = 0;
  // hits[i] = closest(rays[i]), up to the intersector's rounding (the kd-tree's are closest()'s
  // to the bit). The tracer hands over neighbouring pixels' rays together, in order, so an
  // intersector may trace them in packets.
  virtual void closest_batch(std::span<const Ray> rays, std::span<RayHit> hits) const {
    for (size_t i = 0; i < rays.size(); ++i) hits[i] = closest(rays[i]);
  }
};

class KdTreeIntersector final : public Intersector {
 public:
  // `kernels`: how batches are traced (triangle_packet.h); the hits are the same.
  explicit KdTreeIntersector(const kdtree::TriangleKdTree& tree,
                             kdtree::RayKernels kernels = kdtree::RayKernels::kFastest)
      : tree_(tree), kernels_(kernels) {}
  RayHit closest(const Ray& ray) const override { return kdtree::trace_closest(tree_, ray); }
  bool any(const Ray& ray) const override { return kdtree::trace_any(tree_, ray); }
  void closest_batch(std::span<const Ray> rays, std::span<RayHit> hits) const override {
    kdtree::trace_closest_packets(kdtree::view_of(tree_), rays, hits, kernels_);
  }

 private:
  const kdtree::TriangleKdTree& tree_;
  kdtree::RayKernels kernels_;
};

// An Intersector as WhittedPath's Surface (the CPU tracer's).
struct IntersectorSurface {
  const Intersector* intersector;
  RayHit closest(const Ray& ray) const { return intersector->closest(ray); }
  bool any(const Ray& ray) const { return intersector->any(ray); }
};

// Every triangle tested: the reference a tracer's image must equal with any intersector.
class BruteForceIntersector final : public Intersector {
 public:
  BruteForceIntersector(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices)
      : vertices_(vertices), indices_(indices) {}
  RayHit closest(const Ray& ray) const override { return kdtree::brute_force_closest(vertices_, indices_, ray); }
  bool any(const Ray& ray) const override { return closest(ray).hit(); }

 private:
  std::span<const glm::vec3> vertices_;
  std::span<const uint32_t> indices_;
};

}  // namespace meniscus::sim::raytrace
