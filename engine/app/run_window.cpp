#include "engine/app/run_window.h"

#include <algorithm>
#include <cmath>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <chrono>
#include <map>
#include <cstdio>
#include <string>

#include "engine/app/capture.h"
#include "engine/app/scene.h"
#include "engine/app/scene_renderer.h"
#include "engine/app/sculpt_brush.h"
#include "engine/app/segmentation_panel.h"
#include "engine/app/pass_settings.h"
#include "engine/app/timing_files.h"
#include "engine/app/ui_overlay.h"
#include "engine/app/window.h"
#include "engine/core/context.h"
#include "engine/core/error.h"
#include "engine/core/log.h"
#include "sim/common/backend.h"

namespace meniscus {
namespace {

constexpr uint32_t kHeadlessFrames = 60;  // one second of scene time: the dam break's surge mid-tank

int run_headless(const RunOptions& options) {
  log::info("no display: running headless (a PNG of the last frame is written to out/)");
  CaptureOptions capture_options;
  capture_options.scene = options.scene;
  capture_options.width = options.width;
  capture_options.height = options.height;
  capture_options.frames = options.frames.value_or(kHeadlessFrames);
  capture_options.timings = options.timings;
  capture_options.dump_graph = options.dump_graph;
  capture_options.sim = options.sim;
  capture_options.device = options.device;
  capture_options.validation = options.validation;
  capture_options.fluid_debug = options.fluid_debug;
  capture_options.png = std::filesystem::path("out") / (options.scene.stem().string() + ".png");
  const CaptureResult result = capture(capture_options);
  std::printf("rendered %u frames of %s headless on %s: %s\n", capture_options.frames,
              options.scene.string().c_str(), result.device.c_str(), capture_options.png->string().c_str());
  return result.validation_errors == 0 ? 0 : 1;
}

// A reset the device had no memory for changed nothing (DeviceMemoryError): the stage goes on
// as it was, and the panel says why its sliders went back.
void reset_stage(sim::Stage& stage, std::string& refusal) {
  try {
    stage.reset();
  } catch (const DeviceMemoryError& error) {
    refusal = error.what();
    std::fprintf(stderr, "meniscus: %s\n", error.what());
  }
}

// The level set the surface pass draws, when it is one a brush may shape (a segmentation
// follows its data instead).
sim::levelset::LevelSetStage* sculptable(SceneRenderer& renderer) {
  sim::levelset::LevelSetStage* stage = renderer.surface() ? renderer.composer().drawn_level_set() : nullptr;
  return stage && !dynamic_cast<sim::levelset::SegmentationStage*>(stage) ? stage : nullptr;
}

// Shift or Ctrl with the left button over the scene: the brush, not the camera, has the mouse.
BrushMode brush_mode(Window& window, const UiOverlay& ui) {
  GLFWwindow* w = window.handle();
  if (ui.wants_mouse() || glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_LEFT) != GLFW_PRESS) return BrushMode::kNone;
  const auto held = [&](int a, int b) { return glfwGetKey(w, a) == GLFW_PRESS || glfwGetKey(w, b) == GLFW_PRESS; };
  if (held(GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT)) return BrushMode::kRaise;
  if (held(GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL)) return BrushMode::kCarve;
  return BrushMode::kNone;
}

void draw_panel(SceneRenderer& renderer, const Context& context, double frame_ms, std::string& refusal,
                std::map<const sim::Stage*, SegmentationPanel>& segmentation_panels, SculptBrush& brush) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("Meniscus", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  Scene& scene = renderer.scene();
  ImGui::Text("%s on %s", scene.name.c_str(), context.info().name.c_str());
  ImGui::Text("frame %.2f ms (%.0f fps)", frame_ms, frame_ms > 0 ? 1000.0 / frame_ms : 0.0);

  if (ImGui::CollapsingHeader("GPU passes", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (const auto& timing = renderer.last_timing()) {
      if (ImGui::BeginTable("passes", 2)) {
        for (const auto& pass : timing->passes) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::TextUnformatted(pass.name.c_str());
          ImGui::TableNextColumn();
          ImGui::Text("%.3f ms", pass.gpu_ms);
        }
        for (const auto& stage : timing->stages) {
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          ImGui::Text("%s (%s)", stage.name.c_str(), stage.backend.c_str());
          ImGui::TableNextColumn();
          ImGui::Text("%.3f ms", stage.ms);
        }
        ImGui::EndTable();
      }
      ImGui::Text("GPU total %.3f ms", timing->gpu_ms);
    }
  }
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("paused", &renderer.paused);
    ImGui::SameLine();
    if (ImGui::Button("step")) renderer.paused = renderer.step_once = true;
    ImGui::SameLine();
    const bool reset = ImGui::Button("reset");
    if (reset) refusal.clear();  // a new request: only its own refusals are shown
    StageSet& stages = renderer.stages();
    for (size_t i = 0; i < stages.size(); ++i) {
      sim::Stage* stage = &stages.stage(i);
      if (reset) reset_stage(*stage, refusal);
      ImGui::Text("%s: %s", stages.facts(i).name.c_str(), stage->summary().c_str());
      ImGui::PushID(stage);
      bool reset_wanted = false;
      for (const sim::StageControl& control : stage->controls()) {
        const bool changed = ImGui::SliderFloat(control.label.c_str(), control.value, control.min, control.max, "%.4g",
                                                control.logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
        reset_wanted |= changed && control.resets;
      }
      if (reset_wanted) {
        refusal.clear();
        reset_stage(*stage, refusal);
      }
      if (auto* segment = dynamic_cast<sim::levelset::SegmentationStage*>(stage)) segmentation_panels[stage].draw(*segment);
      ImGui::PopID();
    }
    if (!refusal.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", refusal.c_str());
  }
  if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) {
    auto& particles = renderer.particle_settings();
    ImGui::SliderFloat("particle radius", &particles.radius, 0.005f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
    ImGui::ColorEdit3("particle colour", &particles.color.x);
    if (auto* fluid = renderer.fluid_settings()) draw_fluid_controls(*fluid);
    if (auto* mip = renderer.composer().mip_settings())
      draw_mip_controls(*mip, *renderer.composer().mip_stream(), *renderer.composer().mip_progress());
    if (auto* preview = renderer.composer().surface_preview()) {
      int level = preview->level();
      if (ImGui::SliderInt("wavelet detail withheld", &level, 0, preview->levels())) preview->hold(level);
    }
    if (auto* surface = renderer.surface()) {
      const glm::vec2 range = surface->range();
      for (auto& layer : surface->layers()) {
        ImGui::Checkbox(("##" + layer.name).c_str(), &layer.visible);
        ImGui::SameLine();
        ImGui::SliderFloat((layer.name + " iso").c_str(), &layer.iso, range.x, range.y);
      }
    }
    if (sculptable(renderer)) brush.draw_controls();
    if (float* divider = renderer.composer().split_divider())
      ImGui::SliderFloat("divider (or drag the line)", divider, 0.0f, 1.0f);
    ImGui::SliderFloat("exposure", &scene.render.exposure, 0.05f, 8.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
    bool changed = ImGui::SliderFloat("sun intensity", &scene.environment.sun_intensity, 0.0f, 20.0f);
    changed |= ImGui::SliderFloat3("sun direction", &scene.environment.sun_direction.x, -1.0f, 1.0f);
    changed |= ImGui::ColorEdit3("sky zenith", &scene.environment.sky_zenith.x);
    changed |= ImGui::ColorEdit3("sky horizon", &scene.environment.sky_horizon.x);
    if (changed) {
      if (glm::length(scene.environment.sun_direction) < 1e-3f) scene.environment.sun_direction = {0, 1, 0};
      scene.environment.sun_direction = glm::normalize(scene.environment.sun_direction);
      renderer.environment_changed();
    }
  }
  ImGui::End();
}

// A split scene's divider follows the mouse while the left button, pressed within a few pixels
// of it, stays down; any other left drag orbits the camera.
struct DividerDrag {
  bool active = false;
  bool was_pressed = false;
};

CameraInput read_input(Window& window, const UiOverlay& ui, double dt, glm::dvec2& last_cursor, float* divider,
                       DividerDrag& drag, bool brushing) {
  CameraInput input;
  input.dt = static_cast<float>(dt);
  GLFWwindow* w = window.handle();
  glm::dvec2 cursor;
  glfwGetCursorPos(w, &cursor.x, &cursor.y);
  const glm::dvec2 delta = cursor - last_cursor;
  last_cursor = cursor;
  const float scroll = window.take_scroll();
  const bool pressed = glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  int width = 0, height = 0;
  glfwGetWindowSize(w, &width, &height);
  if (!pressed) drag.active = false;
  if (pressed && !drag.was_pressed && divider && !ui.wants_mouse() && width > 0)
    drag.active = std::abs(cursor.x - double(*divider) * width) <= 6.0;
  drag.was_pressed = pressed;
  if (drag.active) {
    *divider = float(std::clamp(cursor.x / std::max(width, 1), 0.0, 1.0));
  } else if (!ui.wants_mouse()) {
    if (pressed && !brushing) input.rotate = glm::vec2(delta);
    input.zoom = scroll;
  }
  if (!ui.wants_keyboard()) {
    auto key = [&](int k) { return glfwGetKey(w, k) == GLFW_PRESS ? 1.0f : 0.0f; };
    input.move = {key(GLFW_KEY_D) - key(GLFW_KEY_A), key(GLFW_KEY_E) - key(GLFW_KEY_Q),
                  key(GLFW_KEY_W) - key(GLFW_KEY_S)};
  }
  return input;
}

}  // namespace

int run_interactive(const RunOptions& options) {
  if (!display_available()) return run_headless(options);

  Scene scene = load_scene(options.scene);
  if (options.width) scene.render.width = *options.width;
  if (options.height) scene.render.height = *options.height;
  check_scene_settings(scene);
  check_fluid_debug_flag(scene, options.fluid_debug);
  Window window("Meniscus — " + scene.name, scene.render.width, scene.render.height);
  Context context(ContextOptions{.validation = options.validation,
                                 .instance_extensions = window_instance_extensions(),
                                 .presentation = true,
                                 .preferred_device = options.device});
  window.attach(context);
  // The swapchain must go before the device: this guard is destroyed before `context`.
  struct DetachWindow {
    Window& window;
    ~DetachWindow() { window.detach(); }
  } detach_window{window};
  const sim::SimBackend backend = sim::resolve_backend(options.sim, context.info());
  SceneRenderer renderer(context, scene, window.format(), backend);
  if (options.fluid_debug) renderer.fluid_settings()->debug_view = *options.fluid_debug;
  UiOverlay ui(context, window);

  profile::TimingLog log;
  if (!options.timings.empty()) renderer.record_timings(&log, 0);
  if (options.dump_graph) renderer.dump_graph_next_frame(options.dump_graph->string());

  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  double frame_ms = 0.0;
  glm::dvec2 cursor{0.0};
  glfwGetCursorPos(window.handle(), &cursor.x, &cursor.y);
  DividerDrag divider_drag;
  std::string refusal;  // why the last stage reset was refused, shown in the panel
  std::map<const sim::Stage*, SegmentationPanel> segmentation_panels;
  SculptBrush brush;
  uint32_t presented = 0;
  while (!window.should_close() && (!options.frames || presented < *options.frames)) {
    window.poll_events();
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    frame_ms = 0.9 * frame_ms + 0.1 * dt * 1000.0;
    const BrushMode mode = sculptable(renderer) ? brush_mode(window, ui) : BrushMode::kNone;
    renderer.camera().update(
        read_input(window, ui, dt, cursor, renderer.composer().split_divider(), divider_drag, mode != BrushMode::kNone));
    if (sim::levelset::LevelSetStage* stage = sculptable(renderer)) {
      int width = 0, height = 0;
      glfwGetWindowSize(window.handle(), &width, &height);
      const VkExtent2D extent = window.extent();
      brush.aim(*stage, *renderer.surface(), renderer.camera().pose(float(extent.width) / float(std::max(extent.height, 1u))),
                glm::vec2(cursor), glm::vec2(width, height), mode);
    }

    AcquiredImage image;
    if (!window.acquire(renderer.next_slot(), image)) continue;
    ui.build([&] { draw_panel(renderer, context, frame_ms, refusal, segmentation_panels, brush); });
    // Simulated time follows the wall clock but never jumps by more than two 60 Hz frames,
    // so a stall (window drag, breakpoint) does not explode the simulation.
    renderer.render({image.image, image.view, window.format(), window.extent(), graph::Access::None,
                     graph::Access::Present},
                    {image.available, image.rendered}, std::min(dt, 2.0 / 60.0),
                    [&](graph::FrameGraph& graph, graph::ImageHandle target) {
                      return ui.add(graph, target, image.index);
                    });
    window.present(image);
    ++presented;
  }
  renderer.finish();
  write_timing_files(log, options.timings, context, scene, backend, window.extent(), presented, 0);
  std::printf("presented %u frames\n", presented);
  return context.validation_error_count() == 0 ? 0 : 1;
}

}  // namespace meniscus
