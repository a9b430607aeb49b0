#pragma once
// The sun's shadow map as the passes hand it on: the depth image solids.shadow draws and the box
// its projection was fitted to. Receivers push that box as constants and rebuild the projection
// from it and the frame's sun direction (shaders/include/sun_shadow.glsl).
#include <glm/glm.hpp>

#include "engine/graph/frame_graph.h"

namespace meniscus {
class Context;
}

namespace meniscus::passes {

inline constexpr VkFormat kShadowMapFormat = VK_FORMAT_D32_SFLOAT;
// 2048 texels over the dam break's tank (1.7 m across with the ground) is under a millimetre
// each: shadows as sharp as the scenes' centimetre-sized solids need.
inline constexpr uint32_t kShadowMapSize = 2048;

// Mirrors the push constants `Shadow` of the shaders that receive the shadow.
struct SunShadowConstants {
  glm::vec4 bounds_min{0.0f};
  glm::vec4 bounds_max{0.0f};
};

struct SunShadow {
  graph::ImageHandle map;
  SunShadowConstants constants;
};

// Compares while sampling (sampler2DShadow) with bilinear weights: percentage-closer filtering
// of four texels per tap.
VkSampler create_shadow_sampler(const Context& context);

}  // namespace meniscus::passes
