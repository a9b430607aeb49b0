#pragma once
// Settings of the screen-space fluid chain (scenes: [pass.fluid], read in
// engine/app/stage_factory.cpp). Every default is the documented value for an absent key.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

namespace meniscus::passes {

enum class FluidFilter { CurvatureFlow, Bilateral, NarrowRange };
enum class FluidDebugView { None, Depth, Thickness, Curvature, Noise };

struct FluidSettings {
  float radius = 0.05f;          // particle radius, metres
  float spray_density = 0.0f;    // particles below this density are drawn as spray
  FluidFilter filter = FluidFilter::CurvatureFlow;
  // Curvature-flow steps or separable filter passes (each horizontal + vertical). Unset: the
  // thesis' settings (Table 5.1: 15 at quarter, 40 at half, 100 at full resolution; one pass
  // for the separable filters).
  std::optional<uint32_t> iterations;
  float time_step = 0.5f;        // curvature flow: fraction of the explicit-Euler stability limit
  uint32_t resolution_divisor = 1;  // 1 full, 2 half, 4 quarter
  bool foam = false;             // noise pass, normal perturbation and foam tint
  FluidDebugView debug_view = FluidDebugView::None;
  float edge_threshold = 2.0f;   // depth discontinuity, in particle radii
  float filter_sigma = 2.0f;     // separable filters: spatial sigma, in particle radii
  glm::vec3 fluid_color{0.05f, 0.25f, 0.45f};
  glm::vec3 absorption{2.2f, 0.9f, 0.45f};  // per-channel extinction per metre of thickness
  float refraction = 0.06f;      // gamma of Eq. 5.15 (uv offset per metre of thickness)
  float specular = 0.8f;         // k_s of Eq. 5.13
  float shininess = 120.0f;      // alpha of Eq. 5.13
  float noise_amplitude = 0.35f;
  float agitation_threshold = 2.0f;  // tau of Eq. 5.12, m/s
  float agitation_boost = 3.0f;
  glm::vec3 foam_color{0.85f, 0.88f, 0.9f};
  glm::vec3 spray_color{0.8f, 0.85f, 0.9f};

  uint32_t effective_iterations() const;
};

// Names as scene files and the CLI spell them.
const std::vector<std::string_view>& fluid_filter_names();      // "curvature_flow", ...
const std::vector<std::string_view>& fluid_debug_view_names();  // "none", "depth", ...
std::optional<FluidFilter> fluid_filter_from_name(std::string_view name);
std::optional<FluidDebugView> fluid_debug_view_from_name(std::string_view name);
std::string_view fluid_filter_name(FluidFilter filter);
std::string_view fluid_debug_view_name(FluidDebugView view);

}  // namespace meniscus::passes
