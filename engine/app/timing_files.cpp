#include "engine/app/timing_files.h"

#include <ctime>

#include "engine/app/git_revision.h"
#include "engine/app/scene.h"
#include "engine/core/context.h"

namespace meniscus {
namespace {

std::string utc_now() {
  char text[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace

void write_timing_files(profile::TimingLog& log, const std::vector<std::filesystem::path>& paths, const Context& context,
                        const Scene& scene, sim::SimBackend backend, VkExtent2D extent, uint32_t frames,
                        uint32_t warmup) {
  if (paths.empty()) return;
  profile::CaptureMetadata metadata;
  metadata.scene = scene.name;
  metadata.device = context.info().name;
  metadata.driver = context.info().driver;
  metadata.vulkan_api = context.info().api_version;
  metadata.git_revision = git_revision();
  metadata.sim_backend = sim::backend_name(backend);
  metadata.timestamp_utc = utc_now();
  metadata.width = extent.width;
  metadata.height = extent.height;
  metadata.frames = frames;
  metadata.warmup = warmup;
  log.set_metadata(metadata);
  for (const auto& path : paths) log.write(path.string());
}

}  // namespace meniscus
