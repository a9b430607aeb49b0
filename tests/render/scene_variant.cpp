#include "tests/render/scene_variant.h"

#include <fstream>
#include <sstream>

namespace meniscus::testing {

std::filesystem::path write_variant(const std::string& base, const std::string& name, const std::string& extra_toml) {
  std::ifstream in(std::filesystem::path(MENISCUS_SOURCE_DIR) / base);
  std::stringstream text;
  text << in.rdbuf() << "\n" << extra_toml << "\n";
  // Outside the source tree (ctest may run in it); the base scenes read no relative data paths.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "meniscus-render-variants";
  std::filesystem::create_directories(dir);
  const std::filesystem::path scene = dir / (name + ".toml");
  std::ofstream(scene) << text.str();
  return scene;
}

CaptureResult capture_variant(const std::string& base, const std::string& name, const std::string& extra_toml,
                              uint32_t frames) {
  CaptureOptions options;
  options.scene = write_variant(base, name, extra_toml);
  options.frames = frames;
  options.sim = "cpu";
  options.validation = true;
  return capture(options);
}

}  // namespace meniscus::testing
