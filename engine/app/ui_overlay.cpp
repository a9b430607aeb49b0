#include "engine/app/ui_overlay.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <algorithm>

#include "engine/app/window.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/error.h"

namespace meniscus {
namespace {

void check_imgui_result(VkResult result) {
  if (result != VK_SUCCESS) throw_vk_error(result, "ImGui Vulkan backend", __FILE__, __LINE__);
}

}  // namespace

UiOverlay::UiOverlay(const Context& context, Window& window) : context_(context), window_(window) {
  // The backend allocates one combined image sampler (the font atlas) plus any textures a
  // panel adds; a small pool is plenty.
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool_info.maxSets = 16;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  VK_CHECK(vkCreateDescriptorPool(context.device(), &pool_info, nullptr, &pool_));

  VkAttachmentDescription attachment{};
  attachment.format = window.format();
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference reference{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &reference;
  VkRenderPassCreateInfo render_pass_info{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  render_pass_info.attachmentCount = 1;
  render_pass_info.pAttachments = &attachment;
  render_pass_info.subpassCount = 1;
  render_pass_info.pSubpasses = &subpass;
  VK_CHECK(vkCreateRenderPass(context.device(), &render_pass_info, nullptr, &render_pass_));

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini littering the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForVulkan(window.handle(), true);
  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context.instance();
  info.PhysicalDevice = context.physical_device();
  info.Device = context.device();
  info.QueueFamily = context.queue_family();
  info.Queue = context.queue();
  info.DescriptorPool = pool_;
  info.MinImageCount = 2;
  info.ImageCount = std::max(2u, window.image_count());
  info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
  info.CheckVkResultFn = check_imgui_result;
  ImGui_ImplVulkan_Init(&info, render_pass_);
  submit_and_wait(context, [](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
}

UiOverlay::~UiOverlay() {
  context_.wait_idle();
  ImGui_ImplVulkan_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  destroy_framebuffers();
  vkDestroyRenderPass(context_.device(), render_pass_, nullptr);
  vkDestroyDescriptorPool(context_.device(), pool_, nullptr);
}

void UiOverlay::build(const std::function<void()>& draw) {
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  draw();
  ImGui::Render();
}

bool UiOverlay::wants_mouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool UiOverlay::wants_keyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

void UiOverlay::create_framebuffers() {
  framebuffer_extent_ = window_.extent();
  for (uint32_t i = 0; i < window_.image_count(); ++i) {
    VkImageView view = window_.image_view(i);
    VkFramebufferCreateInfo info{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    info.renderPass = render_pass_;
    info.attachmentCount = 1;
    info.pAttachments = &view;
    info.width = framebuffer_extent_.width;
    info.height = framebuffer_extent_.height;
    info.layers = 1;
    VK_CHECK(vkCreateFramebuffer(context_.device(), &info, nullptr, &framebuffers_.emplace_back()));
    framebuffer_views_.push_back(view);
  }
}

void UiOverlay::destroy_framebuffers() {
  for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(context_.device(), f, nullptr);
  framebuffers_.clear();
  framebuffer_views_.clear();
}

graph::ImageHandle UiOverlay::add(graph::FrameGraph& graph, graph::ImageHandle target, uint32_t image_index) {
  // The swapchain may have been recreated since the framebuffers were made.
  const bool stale = framebuffers_.size() != window_.image_count() ||
                     framebuffer_extent_.width != window_.extent().width ||
                     framebuffer_extent_.height != window_.extent().height ||
                     (image_index < framebuffer_views_.size() && framebuffer_views_[image_index] != window_.image_view(image_index));
  if (stale) {
    context_.wait_idle();
    destroy_framebuffers();
    create_framebuffers();
  }
  graph::ImageHandle written;
  graph.add_pass("ui.overlay", [&](graph::PassBuilder& builder) {
    written = builder.write(target, graph::Access::ColorAttachmentReadWrite);
    VkFramebuffer framebuffer = framebuffers_[image_index];
    return [this, framebuffer](graph::PassContext& ctx) {
      VkRenderPassBeginInfo begin{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
      begin.renderPass = render_pass_;
      begin.framebuffer = framebuffer;
      begin.renderArea = {{0, 0}, framebuffer_extent_};
      vkCmdBeginRenderPass(ctx.cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
      ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), ctx.cmd);
      vkCmdEndRenderPass(ctx.cmd);
    };
  });
  return written;
}

void draw_fluid_controls(passes::FluidSettings& s) {
  auto combo = [](const char* label, int& index, const std::vector<std::string_view>& names) {
    std::string items;  // ImGui's "a\0b\0\0" list
    for (const std::string_view name : names) items.append(name).push_back('\0');
    return ImGui::Combo(label, &index, items.c_str());
  };
  int filter = int(s.filter);
  if (combo("fluid filter", filter, passes::fluid_filter_names())) s.filter = passes::FluidFilter(filter);
  int iterations = int(s.effective_iterations());
  if (ImGui::SliderInt("fluid iterations", &iterations, 0, 200)) s.iterations = uint32_t(iterations);
  if (s.filter == passes::FluidFilter::CurvatureFlow) ImGui::SliderFloat("fluid time step", &s.time_step, 0.05f, 1.0f);
  int resolution = s.resolution_divisor == 4 ? 2 : s.resolution_divisor == 2 ? 1 : 0;
  if (combo("fluid resolution", resolution, {"full", "half", "quarter"})) s.resolution_divisor = 1u << resolution;
  ImGui::Checkbox("fluid foam", &s.foam);
  int view = int(s.debug_view);
  if (combo("fluid debug view", view, passes::fluid_debug_view_names())) s.debug_view = passes::FluidDebugView(view);
  ImGui::SliderFloat("fluid radius", &s.radius, 0.005f, 0.5f, "%.3f", ImGuiSliderFlags_Logarithmic);
}

void draw_mip_controls(passes::MipSettings& s, const sim::mip::StreamIndex& stream,
                       const passes::MipProgress& progress) {
  std::string items;  // ImGui's "a\0b\0\0" list
  for (const std::string_view name : passes::mip_method_names()) items.append(name).push_back('\0');
  int method = int(s.method);
  // Turning the view is the ray cast's alone (the pyramid MIPs need the axis view).
  if (ImGui::Combo("MIP method", &method, items.c_str())) {
    s.method = passes::MipMethod(method);
    if (s.method != passes::MipMethod::RayCast) s.yaw_degrees = s.pitch_degrees = 0.0f;
    if (s.method != passes::MipMethod::Streaming) s.refine_block = 0;
  }
  if (s.method == passes::MipMethod::Streaming) {
    float budget = float(s.budget);
    if (ImGui::SliderFloat("MIP budget", &budget, 0.0f, 1.0f, "%.4f", ImGuiSliderFlags_Logarithmic)) s.budget = budget;
    int block = int(s.refine_block);
    if (ImGui::SliderInt("refine per frame", &block, 0, 1 << 20, "%d", ImGuiSliderFlags_Logarithmic))
      s.refine_block = uint32_t(std::max(0, block));
    float bound = float(s.error_bound);
    if (ImGui::SliderFloat("error bound", &bound, 0.0f, 1.0f, "%.5f", ImGuiSliderFlags_Logarithmic))
      s.error_bound = bound;
    // Refining: what this frame's image holds; otherwise every frame draws its whole target.
    const uint32_t drawn = s.refine_block ? progress.drawn() : passes::refinement_target(s, stream);
    ImGui::Text("%u of %u detail coefficients%s", drawn, stream.detail_count(),
                s.refine_block && !progress.complete() ? " (refining)" : "");
    ImGui::Text("auxiliary error left %.5f", sim::mip::remaining_error(stream, drawn));
  }
  if (s.method == passes::MipMethod::RayCast) {
    ImGui::SliderFloat("MIP yaw", &s.yaw_degrees, -180.0f, 180.0f);
    ImGui::SliderFloat("MIP pitch", &s.pitch_degrees, -90.0f, 90.0f);
  }
  ImGui::SliderFloat("window level", &*s.window_level, -4096.0f, 65535.0f, "%.0f");
  ImGui::SliderFloat("window width", &*s.window_width, 1.0f, 65535.0f, "%.0f", ImGuiSliderFlags_Logarithmic);
}

}  // namespace meniscus
