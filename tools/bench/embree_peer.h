#pragma once
// Embree 3's BVH as a peer of the triangle kd-tree: rebuilt from scratch every frame over the
// same triangles with a given build quality, and traced through the same Intersector
// interface, so the Whitted tracer (sim/raytrace) shoots exactly the same rays through both.
// Like our TriangleKdBuilder, a scene lives from frame to frame (Embree's device, scene and
// buffers, RTC_SCENE_FLAG_DYNAMIC), as a renderer of a changing mesh keeps them. nullptr when
// the benchmark was built without Embree (libembree-dev).
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include <glm/vec3.hpp>

#include "sim/raytrace/intersector.h"

namespace meniscus::bench {

class EmbreeScene {
 public:
  virtual ~EmbreeScene() = default;
  // The BVH built from scratch over these triangles: copied into Embree's buffers (new ones when
  // the counts change) and the scene committed. build_ms times all of it.
  virtual void rebuild(std::span<const glm::vec3> vertices, std::span<const uint32_t> indices) = 0;
  virtual const sim::raytrace::Intersector& intersector() const = 0;
  double build_ms = 0.0;
};

// quality: "low" (RTC_BUILD_QUALITY_LOW, Embree's choice for dynamic scenes) or "medium"; Embree
// builds on `threads` threads of its own.
std::unique_ptr<EmbreeScene> embree_scene(const std::string& quality, int threads);
const char* embree_version();

}  // namespace meniscus::bench
