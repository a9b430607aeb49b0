#pragma once
// Writes a run's timing log to every --timings file, with the metadata that makes two captures
// comparable (device, driver, resolution, scene, revision).
#include <filesystem>
#include <vector>

#include <vulkan/vulkan.h>

#include "engine/profile/timing_log.h"
#include "sim/common/backend.h"

namespace meniscus {

class Context;
struct Scene;

void write_timing_files(profile::TimingLog& log, const std::vector<std::filesystem::path>& paths, const Context& context,
                        const Scene& scene, sim::SimBackend backend, VkExtent2D extent, uint32_t frames,
                        uint32_t warmup);

}  // namespace meniscus
