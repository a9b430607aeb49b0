#pragma once
// A scene file: what a user launches. The fixed sections are read here; each [[stage]] and
// [pass.<name>] table is handed, unread, to the stage or pass it configures, which reads it
// through the same ParamTable and so reports errors the same way.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "engine/app/param_table.h"

namespace meniscus {

// Each field's initializer is the documented default for an absent key.
struct RenderSettings {
  uint32_t width = 1280;
  uint32_t height = 720;
  uint32_t frames_in_flight = 2;
  float exposure = 1.0f;
};

struct CameraSettings {
  std::string mode = "orbit";  // "orbit" | "fly"
  glm::vec3 target{0.0f, 0.5f, 0.0f};
  float distance = 6.0f;
  float yaw_degrees = 30.0f;
  float pitch_degrees = 20.0f;
  float fov_y_degrees = 45.0f;
  float near = 0.05f;
  float far = 500.0f;
  float move_speed = 3.0f;
};

struct EnvironmentSettings {
  glm::vec3 sun_direction = glm::normalize(glm::vec3(0.4f, 0.7f, 0.3f));
  glm::vec3 sun_color{1.0f, 0.95f, 0.88f};
  float sun_intensity = 3.0f;
  glm::vec3 sky_zenith{0.22f, 0.42f, 0.82f};
  glm::vec3 sky_horizon{0.75f, 0.82f, 0.92f};
  bool ground = true;
  float ground_height = 0.0f;
  glm::vec3 ground_color_a{0.55f, 0.55f, 0.52f};
  glm::vec3 ground_color_b{0.35f, 0.35f, 0.33f};
  float ground_tile_size = 1.0f;
  uint32_t sky_cubemap_size = 256;
};

struct StageConfig {
  std::string type;
  std::string name;   // `name`, unique in the scene; the type when absent
  ParamTable params;  // the whole [[stage]] table, `type` and `name` already consumed
};

struct Scene {
  std::string name;
  std::string description;
  std::filesystem::path source;
  RenderSettings render;
  CameraSettings camera;
  EnvironmentSettings environment;
  std::vector<StageConfig> stages;
  std::map<std::string, ParamTable> passes;  // [pass.<name>]

  // The [pass.<name>] table, or an empty view when the scene has none (its errors still name
  // the file and `pass.<name>`).
  ParamTable pass(const std::string& name) const;

  ParamTable pass_section;  // [pass] itself, so absent passes are located views too
};

// Throws InputError (file:line:col, field, what was expected) for anything wrong.
Scene load_scene(const std::filesystem::path& file);

}  // namespace meniscus
