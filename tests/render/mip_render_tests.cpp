// The MIP passes on the device (lavapipe here, validation on): the ray cast against the CPU's
// column maxima, the pyramid MIPs against the ray cast (exact: max is exact), the streaming MIP
// against its CPU reference at partial budgets, and goldens of the CT head scene.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <random>

#include "engine/core/context.h"
#include "engine/core/data_files.h"
#include "passes/mip/mip_readback.h"
#include "passes/mip/mip_renderer.h"
#include "sim/histopyramid/volume_io.h"
#include "sim/mip/axis_mip.h"
#include "tests/render/image_compare.h"
#include "tests/render/scene_variant.h"

namespace meniscus {
namespace {

using passes::MipMethod;
using sim::mip::ViewAxis;

sim::mip::GreyVolume random_volume(glm::uvec3 dims, uint32_t seed) {
  sim::mip::GreyVolume v;
  v.dims = dims;
  v.values.resize(size_t(dims.x) * dims.y * dims.z);
  std::mt19937 rng(seed);
  for (uint16_t& value : v.values) value = uint16_t(rng() % 40 == 0 ? 1000 + rng() % 60000 : rng() % 300);
  return v;
}

sim::mip::CoefficientStream cpu_stream(const sim::mip::GreyVolume& volume, uint32_t levels) {
  return sim::mip::build_coefficient_stream(sim::mip::build_adjunction_pyramid(volume, levels));
}

size_t differing(const sim::mip::MipImage& a, const sim::mip::MipImage& b) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  size_t count = 0;
  for (size_t i = 0; i < a.values.size(); ++i) count += a.values[i] != b.values[i];
  return count;
}

void check_exact(const Context& context, const sim::mip::GreyVolume& volume, uint32_t levels) {
  passes::MipRenderer renderer(context, volume, levels);
  for (ViewAxis axis : {ViewAxis::X, ViewAxis::Y, ViewAxis::Z}) {
    INFO("axis " << int(axis) << ", levels " << levels);
    passes::MipSettings settings;
    settings.axis = axis;
    settings.method = MipMethod::RayCast;
    const sim::mip::MipImage ray_cast = passes::render_mip_image(context, renderer, settings);
    CHECK(differing(ray_cast, sim::mip::axis_mip(volume, axis)) == 0);
    settings.method = MipMethod::Multiresolution;
    CHECK(differing(passes::render_mip_image(context, renderer, settings), ray_cast) == 0);
    settings.method = MipMethod::Streaming;
    settings.budget = 1.0;
    CHECK(differing(passes::render_mip_image(context, renderer, settings), ray_cast) == 0);
  }
}

}  // namespace

TEST_CASE("GPU multiresolution and streaming MIPs with every coefficient equal the GPU ray cast", "[render][mip]") {
  Context context(ContextOptions{.validation = true});
  check_exact(context, random_volume({37, 24, 19}, 1), 2);  // odd sides: the pyramid pads
  check_exact(context, random_volume({16, 16, 16}, 2), 4);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("GPU MIPs of the CT head: exact with every coefficient, the CPU's streaming image at partial budgets",
          "[render][mip][data]") {
  Context context(ContextOptions{.validation = true});
  const sim::mip::GreyVolume head =
      sim::mip::to_grey_levels(sim::load_volume(find_data_file("vtk-data/headsq/quarter.nhdr").string()));
  check_exact(context, head, 3);
  passes::MipRenderer renderer(context, head, 3);
  const sim::mip::CoefficientStream stream = cpu_stream(head, 3);
  CHECK(renderer.stream().removed_error == stream.index.removed_error);
  passes::MipSettings settings;
  settings.method = MipMethod::Streaming;
  for (double budget : {0.0, 0.02, 0.3}) {
    INFO("budget " << budget);
    settings.budget = budget;
    const sim::mip::MipImage cpu =
        sim::mip::streaming_mip(stream, settings.axis, sim::mip::detail_budget(stream.index, budget));
    CHECK(differing(passes::render_mip_image(context, renderer, settings), cpu) == 0);
  }
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("a turned ray cast differs from the axis view but keeps its maximum", "[render][mip]") {
  // The turned rays cross the columns: the image changes, yet no pixel exceeds the volume's max.
  Context context(ContextOptions{.validation = true});
  const sim::mip::GreyVolume volume = random_volume({24, 24, 24}, 3);
  passes::MipRenderer renderer(context, volume, 1);
  passes::MipSettings settings;
  settings.method = MipMethod::RayCast;
  const sim::mip::MipImage straight = passes::render_mip_image(context, renderer, settings);
  settings.yaw_degrees = 30.0f;
  const sim::mip::MipImage turned = passes::render_mip_image(context, renderer, settings);
  CHECK(differing(straight, turned) > 0);
  const uint32_t highest = *std::max_element(volume.values.begin(), volume.values.end());
  CHECK(*std::max_element(turned.values.begin(), turned.values.end()) <= highest);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("CT head MIP scene at two streaming budgets matches its goldens", "[render][mip][data]") {
  for (const auto& [name, budget] :
       {std::pair{"ct_head_mip_budget_2", "0.02"}, std::pair{"ct_head_mip_budget_30", "0.3"}}) {
    const CaptureResult result = testing::capture_variant("scenes/ct_head_mip.toml", name,
                                                          std::string("method = \"streaming\"\nbudget = ") + budget, 1);
    CHECK(result.validation_errors == 0);
    const std::string failure = testing::check_golden(name, result.image);
    INFO(failure);
    CHECK(failure.empty());
  }
}

TEST_CASE("CT head MIP scene matches its golden", "[render][mip][data]") {
  CaptureOptions options;
  options.scene = std::filesystem::path(MENISCUS_SOURCE_DIR) / "scenes/ct_head_mip.toml";
  options.width = 320;
  options.height = 200;
  options.frames = 1;
  options.sim = "cpu";
  options.validation = true;
  const CaptureResult result = capture(options);
  CHECK(result.validation_errors == 0);
  const std::string failure = testing::check_golden("ct_head_mip", result.image);
  INFO(failure);
  CHECK(failure.empty());
}

TEST_CASE("progressive streaming adds a block per frame up to the budget and restarts when the settings change",
          "[render][mip][data]") {
  Context context(ContextOptions{.validation = true});
  const sim::mip::GreyVolume head =
      sim::mip::to_grey_levels(sim::load_volume(find_data_file("vtk-data/headsq/quarter.nhdr").string()));
  passes::MipRenderer renderer(context, head, 3);
  const sim::mip::CoefficientStream stream = cpu_stream(head, 3);
  passes::MipSettings settings;
  settings.method = MipMethod::Streaming;
  settings.budget = 0.1;
  const uint32_t target = sim::mip::detail_budget(stream.index, settings.budget);
  settings.refine_block = target / 3 + 1;  // three frames reach the budget, the third only part of a block
  // Each frame holds exactly the prefix a from-scratch streaming MIP of that length draws.
  for (uint32_t frame = 1; frame <= 5; ++frame) {
    INFO("frame " << frame);
    const sim::mip::MipImage image = passes::render_mip_image(context, renderer, settings);
    const uint32_t expected = std::min(frame * settings.refine_block, target);
    CHECK(renderer.progress().drawn() == expected);
    CHECK(renderer.progress().complete() == (frame >= 3));
    CHECK(differing(image, sim::mip::streaming_mip(stream, settings.axis, expected)) == 0);
  }
  // A new budget restarts from the base: one block, not the old image plus more.
  settings.budget = 0.05;
  const sim::mip::MipImage restarted = passes::render_mip_image(context, renderer, settings);
  CHECK(renderer.progress().drawn() == settings.refine_block);
  CHECK(differing(restarted, sim::mip::streaming_mip(stream, settings.axis, settings.refine_block)) == 0);
  // So does a new axis (a different image size, the same kept buffer).
  settings.axis = ViewAxis::Z;
  CHECK(differing(passes::render_mip_image(context, renderer, settings),
                  sim::mip::streaming_mip(stream, ViewAxis::Z, settings.refine_block)) == 0);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("progressive streaming stops at an error bound before the budget", "[render][mip][data]") {
  Context context(ContextOptions{.validation = true});
  const sim::mip::GreyVolume head =
      sim::mip::to_grey_levels(sim::load_volume(find_data_file("vtk-data/headsq/quarter.nhdr").string()));
  passes::MipRenderer renderer(context, head, 3);
  const sim::mip::CoefficientStream stream = cpu_stream(head, 3);
  passes::MipSettings settings;
  settings.method = MipMethod::Streaming;
  settings.budget = 1.0;
  settings.error_bound = 0.05;
  const uint32_t stop = sim::mip::detail_count_for_error(renderer.stream(), settings.error_bound);
  REQUIRE(stop < renderer.stream().detail_count());
  settings.refine_block = stop / 4 + 1;
  sim::mip::MipImage image;
  for (int frame = 0; frame < 6; ++frame) image = passes::render_mip_image(context, renderer, settings);
  CHECK(renderer.progress().drawn() == stop);
  CHECK(sim::mip::remaining_error(renderer.stream(), renderer.progress().drawn()) <= settings.error_bound);
  CHECK(differing(image, sim::mip::streaming_mip(stream, settings.axis, stop)) == 0);
  // Drawn at once (no refinement), the bound cuts the same frame.
  settings.refine_block = 0;
  CHECK(differing(passes::render_mip_image(context, renderer, settings), image) == 0);
  CHECK(context.validation_error_count() == 0);
}

TEST_CASE("CT head MIP refined over three frames matches its golden and is the same image every run",
          "[render][mip][data]") {
  // 3 frames of 1500 details: the capture holds the first 4500, whatever the frames' timing.
  const std::string extra = "method = \"streaming\"\nbudget = 0.5\nrefine_block = 1500";
  const CaptureResult first = testing::capture_variant("scenes/ct_head_mip.toml", "ct_head_mip_refine_3", extra, 3);
  CHECK(first.validation_errors == 0);
  const std::string failure = testing::check_golden("ct_head_mip_refine_3", first.image);
  INFO(failure);
  CHECK(failure.empty());
  const CaptureResult again = testing::capture_variant("scenes/ct_head_mip.toml", "ct_head_mip_refine_3", extra, 3);
  CHECK(again.image.pixels == first.image.pixels);
  // And the frames did refine: one frame holds a single block.
  const CaptureResult one = testing::capture_variant("scenes/ct_head_mip.toml", "ct_head_mip_refine_1", extra, 1);
  CHECK(one.image.pixels != first.image.pixels);
}

}  // namespace meniscus
