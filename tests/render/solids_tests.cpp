// The solids passes (passes/solids) on lavapipe, validation on: the dam break's glass tank and
// the waterfall's corridor block and pipe, drawn as a scene draws them
//   sky -> solids.shadow -> background (shadowed) -> solids.opaque -> solids.glass -> tonemap
// at 1280 x 720 through the dam break scene's camera and sun. Each render is compared with the
// same frame drawn with fewer solids, at pixels the geometry says must (or must not) change.
// The PNGs are written to $MENISCUS_RENDER_OUT, else <temp>/meniscus-solids, for looking at.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "engine/app/png_io.h"
#include "engine/core/buffer.h"
#include "engine/core/commands.h"
#include "engine/core/context.h"
#include "engine/core/image.h"
#include "engine/graph/executor.h"
#include "passes/background/background_pass.h"
#include "passes/common/frame_uniforms.h"
#include "passes/fluid/fluid_offscreen.h"
#include "passes/fluid/fluid_renderer.h"
#include "passes/readback/readback_pass.h"
#include "passes/sky/sky_pass.h"
#include "passes/solids/solids_of_sph.h"
#include "passes/solids/solids_pass.h"
#include "passes/tonemap/tonemap_pass.h"

namespace meniscus {
namespace {

using passes::SolidShape;

constexpr VkExtent2D kExtent{1280, 720};
constexpr VkFormat kOutputFormat = VK_FORMAT_R8G8B8A8_UNORM;

// scenes/dam_break.toml: camera and environment.
struct Orbit {
  glm::vec3 target{0.75f, 0.2f, 0.15f};
  float distance = 1.6f;
  float yaw_degrees = 20.0f;
  float pitch_degrees = 25.0f;
};
constexpr Orbit kDamBreakCamera{};
constexpr Orbit kWaterfallCamera{{1.0f, 0.4f, 0.3f}, 2.6f, 25.0f, 20.0f};
// Both scenes' suns stand behind their cameras: this one looks at the side the shadows fall on.
constexpr Orbit kShadeSideCamera{{0.5f, 0.2f, 0.2f}, 2.4f, 215.0f, 35.0f};

struct Environment {
  glm::vec3 sun_direction{0.45f, 0.7f, 0.35f};
  float ground_height = -0.02f;
  float tile_size = 0.1f;
};
constexpr Environment kDamBreakEnvironment{};

sim::SphParams dam_break_params() {
  sim::SphParams p;
  p.particle_radius = 0.0075f;
  p.domain = {{0.0f, 0.0f, 0.0f}, {1.5f, 0.75f, 0.3f}};
  return p;
}

sim::SphParams waterfall_params() {
  sim::SphParams p;
  p.particle_radius = 0.01f;
  p.domain = {{0.0f, 0.0f, 0.0f}, {2.0f, 1.2f, 0.6f}};
  p.boxes.push_back({{{0.0f, 0.0f, 0.0f}, {0.9f, 0.5f, 0.6f}}});
  sim::SphEmitter emitter;
  emitter.center[0] = 0.06f, emitter.center[1] = 0.64f, emitter.center[2] = 0.3f;
  emitter.radius = 0.11f;
  emitter.speed = 2.0f;
  p.emitters.push_back(emitter);
  return p;
}

// The dam break a moment after release: a wedge of water on the dam break's lattice, deepest at
// the left wall where the column stood.
std::vector<sim::Particle> surge_particles() {
  const float spacing = 0.015f;
  std::vector<sim::Particle> out;
  for (float x = 0.5f * spacing; x < 1.2f; x += spacing)
    for (float z = 0.5f * spacing; z < 0.3f; z += spacing)
      for (float y = 0.5f * spacing; y < 0.05f + 0.3f * (1.0f - x / 1.2f); y += spacing) {
        sim::Particle p{};
        p.position[0] = x, p.position[1] = y, p.position[2] = z;
        p.density = 1000.0f;
        out.push_back(p);
      }
  return out;
}

// engine/app/camera.cpp's orbit camera, and the frame uniforms SceneRenderer writes.
passes::FrameUniforms frame_uniforms(const Orbit& orbit, const Environment& env) {
  const float yaw = glm::radians(orbit.yaw_degrees), pitch = glm::radians(orbit.pitch_degrees);
  const glm::vec3 forward(-std::sin(yaw) * std::cos(pitch), -std::sin(pitch), -std::cos(yaw) * std::cos(pitch));
  passes::FluidCamera camera;
  camera.position = orbit.target - forward * orbit.distance;
  camera.target = camera.position + forward;
  camera.fov_y_degrees = 50.0f;
  camera.near_plane = 0.01f;
  camera.far_plane = 50.0f;
  passes::FrameUniforms u{};
  u.view = camera.view();
  u.proj = camera.proj(kExtent);
  u.view_proj = u.proj * u.view;
  u.inv_view_proj = glm::inverse(u.view_proj);
  u.camera_position = glm::vec4(camera.position, 0.0f);
  u.sun_direction = glm::vec4(glm::normalize(env.sun_direction), 3.0f);
  u.sun_color = glm::vec4(1.0f, 0.95f, 0.88f, 1.0f);
  u.sky_zenith = glm::vec4(0.22f, 0.42f, 0.82f, 0.0f);
  u.sky_horizon = glm::vec4(0.75f, 0.82f, 0.92f, 0.0f);
  u.ground_color_a = glm::vec4(0.55f, 0.55f, 0.52f, env.ground_height);
  u.ground_color_b = glm::vec4(0.35f, 0.35f, 0.33f, env.tile_size);
  u.viewport = glm::vec4(kExtent.width, kExtent.height, 1.0f / kExtent.width, 1.0f / kExtent.height);
  u.flags = glm::vec4(1.0f, camera.near_plane, camera.far_plane, 0.0f);
  return u;
}

// One frame of sky, ground, solids (none: the background as scenes without solids draw it) and
// optionally a fluid between the opaque and the glass passes, as a scene orders them.
class SolidsFrame {
 public:
  explicit SolidsFrame(const Context& context, const std::vector<sim::Particle>& particles = {})
      : context_(context),
        particle_count_(uint32_t(particles.size())),
        particles_(context, std::max<size_t>(particles.size(), 1) * sizeof(sim::Particle),
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload, "test.particles"),
        uniforms_(context, sizeof(passes::FrameUniforms), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload,
                  "test.frame"),
        output_(context,
                ImageSpec{.format = kOutputFormat,
                          .extent = kExtent,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT},
                "test.output"),
        readback_(context, VkDeviceSize(kExtent.width) * kExtent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  MemoryUse::Readback, "test.readback"),
        executor_(context, 1),
        sky_(context, 256),
        background_(context),
        fluid_(context),
        tonemap_(context, kOutputFormat) {
    if (!particles.empty()) std::memcpy(particles_.mapped(), particles.data(), particles.size() * sizeof(sim::Particle));
  }

  RgbaImage render(const passes::FrameUniforms& uniforms, passes::SolidsPass* solids,
                   const passes::FluidSettings* fluid = nullptr, bool near_glass = true) {
    std::memcpy(uniforms_.mapped(), &uniforms, sizeof(uniforms));
    graph::FrameGraph graph;
    const graph::BufferHandle frame = graph.import_buffer(
        "frame.uniforms", {uniforms_.handle(), uniforms_.size(), graph::Access::HostWrite, graph::Access::HostWrite});
    const graph::ImageHandle sky = sky_.add(graph, frame);
    std::optional<passes::SunShadow> shadow;
    if (solids) shadow = solids->add_shadow(graph, frame);
    passes::SceneTargets targets = background_.add(graph, kExtent, sky, frame, shadow ? &*shadow : nullptr);
    if (solids) targets = solids->add_opaque(graph, targets, sky, frame, *shadow);
    if (fluid) {
      const graph::BufferHandle particles = graph.import_buffer(
          "particles", {particles_.handle(), particles_.size(), graph::Access::HostWrite, graph::Access::HostWrite});
      targets = fluid_.add(graph, targets, {particles, particle_count_, frame, sky, uniforms.proj, kExtent}, *fluid);
    }
    if (solids && near_glass) targets = solids->add_glass(graph, targets, sky, frame);
    graph::ImageHandle out = graph.import_image(
        "output.image", {output_.handle(), output_.view(), {.format = kOutputFormat, .extent = kExtent},
                         graph::Access::None, graph::Access::TransferSrc});
    out = tonemap_.add(graph, targets.color, out, 1.0f);
    passes::add_readback(graph, out,
                         graph.import_buffer("output.readback", {readback_.handle(), readback_.size(),
                                                                 graph::Access::None, graph::Access::HostRead}));
    submit_and_wait(context_, [&](VkCommandBuffer cmd) { executor_.execute(graph, cmd, nullptr); });
    readback_.invalidate();
    RgbaImage image{kExtent.width, kExtent.height, std::vector<uint8_t>(readback_.size())};
    std::memcpy(image.pixels.data(), readback_.mapped(), readback_.size());
    return image;
  }

 private:
  const Context& context_;
  uint32_t particle_count_;
  Buffer particles_;
  Buffer uniforms_;
  Image output_;
  Buffer readback_;
  graph::GraphExecutor executor_;
  passes::SkyPass sky_;
  passes::BackgroundPass background_;
  passes::FluidRenderer fluid_;
  passes::TonemapPass tonemap_;
};

std::filesystem::path out_dir() {
  const char* env = std::getenv("MENISCUS_RENDER_OUT");
  const std::filesystem::path dir =
      env ? std::filesystem::path(env) : std::filesystem::temp_directory_path() / "meniscus-solids";
  std::filesystem::create_directories(dir);
  return dir;
}

void save(const RgbaImage& image, const std::string& name) { write_png(out_dir() / (name + ".png"), image); }

std::optional<glm::ivec2> pixel_of(const passes::FrameUniforms& u, glm::vec3 world) {
  const glm::vec4 clip = u.view_proj * glm::vec4(world, 1.0f);
  if (clip.w <= 0.0f) return std::nullopt;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  const glm::ivec2 p(int((ndc.x * 0.5f + 0.5f) * kExtent.width), int((ndc.y * 0.5f + 0.5f) * kExtent.height));
  if (p.x < 0 || p.y < 0 || p.x >= int(kExtent.width) || p.y >= int(kExtent.height)) return std::nullopt;
  return p;
}

glm::vec3 rgb_at(const RgbaImage& image, glm::ivec2 p) {
  const uint8_t* px = &image.pixels[(size_t(p.y) * image.width + p.x) * 4];
  return {px[0], px[1], px[2]};
}

// Mean of a 5 x 5 block: a pixel's neighbourhood, steadier than the pixel against edges.
glm::vec3 rgb_near(const RgbaImage& image, glm::ivec2 p) {
  glm::vec3 sum(0.0f);
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      sum += rgb_at(image, glm::clamp(p + glm::ivec2(dx, dy), glm::ivec2(0), glm::ivec2(kExtent.width - 1, kExtent.height - 1)));
  return sum / 25.0f;
}

float luminance(glm::vec3 rgb) { return glm::dot(rgb, glm::vec3(0.2126f, 0.7152f, 0.0722f)); }

float largest_difference(glm::vec3 a, glm::vec3 b) {
  const glm::vec3 d = glm::abs(a - b);
  return std::max({d.x, d.y, d.z});
}

// Largest minus smallest luminance over the pixels of `points` (those on screen): large where
// the ground's checkers show, small on a lit solid face.
float luminance_spread(const RgbaImage& image, const passes::FrameUniforms& u, const std::vector<glm::vec3>& points) {
  float lo = 1e9f, hi = -1e9f;
  for (const glm::vec3& p : points)
    if (const auto pixel = pixel_of(u, p)) {
      const float l = luminance(rgb_at(image, *pixel));
      lo = std::min(lo, l);
      hi = std::max(hi, l);
    }
  return hi - lo;
}

// Points on a grid over the rectangle [a, b] of the plane y = height (or over a sloped face
// through `lift`: y = height + lift.x * x + lift.y * z).
std::vector<glm::vec3> grid(glm::vec2 a, glm::vec2 b, float height, glm::vec2 lift = glm::vec2(0.0f)) {
  std::vector<glm::vec3> out;
  for (float x = a.x; x <= b.x + 1e-6f; x += 0.02f)
    for (float z = a.y; z <= b.y + 1e-6f; z += 0.02f) out.emplace_back(x, height + lift.x * x + lift.y * z, z);
  return out;
}

// Whether the segment from `origin` along `dir` (length `t_max`) passes through the box.
bool hits_box(glm::vec3 origin, glm::vec3 dir, float t_max, glm::vec3 lo, glm::vec3 hi) {
  float t0 = 0.0f, t1 = t_max;
  for (int a = 0; a < 3; ++a) {
    if (std::abs(dir[a]) < 1e-8f) {
      if (origin[a] < lo[a] || origin[a] > hi[a]) return false;
      continue;
    }
    float near_t = (lo[a] - origin[a]) / dir[a], far_t = (hi[a] - origin[a]) / dir[a];
    if (near_t > far_t) std::swap(near_t, far_t);
    t0 = std::max(t0, near_t);
    t1 = std::min(t1, far_t);
  }
  return t0 <= t1;
}

// The screen rectangle around the projected corners of a box, grown by `margin` pixels.
struct ScreenRect {
  glm::ivec2 lo{INT32_MAX}, hi{INT32_MIN};
  bool contains(glm::ivec2 p) const { return p.x >= lo.x && p.y >= lo.y && p.x <= hi.x && p.y <= hi.y; }
};

ScreenRect screen_rect(const passes::FrameUniforms& u, glm::vec3 lo, glm::vec3 hi, int margin) {
  ScreenRect rect;
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z);
    const glm::vec4 clip = u.view_proj * glm::vec4(corner, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    const glm::ivec2 p((ndc.x * 0.5f + 0.5f) * kExtent.width, (ndc.y * 0.5f + 0.5f) * kExtent.height);
    rect.lo = glm::min(rect.lo, p - margin);
    rect.hi = glm::max(rect.hi, p + margin);
  }
  return rect;
}

}  // namespace

TEST_CASE("solids of an SPH scene: a tank, concrete boxes and pipes reaching outside the tank", "[render][solids]") {
  const std::vector<SolidShape> shapes = passes::solids_of(waterfall_params());
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0].kind == SolidShape::Kind::Tank);
  CHECK(shapes[1].kind == SolidShape::Kind::Box);
  const SolidShape& pipe = shapes[2];
  REQUIRE(pipe.kind == SolidShape::Kind::Pipe);
  // The bore holds the emitted disk and its particles; the pipe leaves the tank backwards.
  CHECK(pipe.radius >= 0.11f + 0.01f);
  CHECK(pipe.center.x - pipe.length < -0.2f);
  const passes::SolidsMesh mesh = passes::build_solids_mesh(shapes);
  CHECK(mesh.opaque_count > 0);
  CHECK(mesh.glass_count > 0);
  CHECK(mesh.bounds_min.x < -0.2f);
  for (uint32_t i = 0; i < mesh.opaque_count; ++i) CHECK(mesh.vertices[i].position.w != float(passes::SolidMaterial::Kind::Glass));
}

TEST_CASE("a plane is drawn as the solid below it inside the tank, or as its cap when flat on a wall", "[render][solids]") {
  sim::SphParams params = dam_break_params();
  params.planes.push_back({{0.0f, 0.1f, 0.0f}, {-0.3f, 1.0f, 0.0f}});  // a ramp rising towards +x
  params.planes.push_back({{0.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}});   // the tank's own floor
  const std::vector<SolidShape> shapes = passes::solids_of(params);
  REQUIRE(shapes.size() == 3);
  const passes::SolidsMesh ramp = passes::build_solids_mesh({shapes[1]});
  const passes::SolidsMesh floor = passes::build_solids_mesh({shapes[2]});
  // The ramp: its cap and five clipped box faces (the top face lies wholly above it).
  CHECK(ramp.vertices.size() >= 6 * 3 * 2);
  const glm::vec3 n = shapes[1].normal;
  for (const passes::SolidVertex& v : ramp.vertices) {
    const glm::vec3 p(v.position);
    CHECK(glm::dot(n, p - shapes[1].point) <= 1e-5f);
    CHECK(glm::all(glm::greaterThanEqual(p, shapes[1].min - 1e-5f)));
    CHECK(glm::all(glm::lessThanEqual(p, shapes[1].max + 1e-5f)));
  }
  // Flat on the floor: only the cap, two triangles facing up (no coplanar face to fight it).
  REQUIRE(floor.vertices.size() == 6);
  for (const passes::SolidVertex& v : floor.vertices) CHECK(v.normal.y == Approx(1.0f));
}

TEST_CASE("solids: the dam break's glass tank is see-through, with darker edges and no shadow", "[render][solids]") {
  Context context(ContextOptions{.validation = true});
  SolidsFrame frame(context);
  const passes::FrameUniforms u = frame_uniforms(kDamBreakCamera, kDamBreakEnvironment);
  passes::SolidsPass tank(context, passes::solids_of(dam_break_params()));
  const RgbaImage plain = frame.render(u, nullptr);
  const RgbaImage glass = frame.render(u, &tank);
  save(plain, "dam_break_no_solids");
  save(glass, "dam_break_tank");
  CHECK(context.validation_error_count() == 0);

  // Outside the tank nothing changes: glass casts no shadow, and the ground's shadow lookup
  // with an empty map is the plain ground.
  const SolidShape& shape = tank.shapes()[0];
  const float t = shape.thickness;
  const ScreenRect rect = screen_rect(u, shape.min - glm::vec3(t), shape.max + glm::vec3(t, 0.0f, t), 3);
  size_t outside = 0, outside_changed = 0, inside_changed = 0;
  for (int y = 0; y < int(kExtent.height); ++y)
    for (int x = 0; x < int(kExtent.width); ++x) {
      const float d = largest_difference(rgb_at(glass, {x, y}), rgb_at(plain, {x, y}));
      if (rect.contains({x, y})) {
        inside_changed += d > 2.0f;
      } else {
        ++outside;
        outside_changed += d > 1.0f;
      }
    }
  INFO("outside the tank: " << outside_changed << " of " << outside << " pixels changed; inside: " << inside_changed);
  CHECK(outside > 100000);
  CHECK(outside_changed == 0);
  CHECK(inside_changed > 20000);

  // Through the middle of the near wall the ground still shows: two neighbouring checker
  // cells keep most of their contrast. The near wall's vertical edge, seen along the pane,
  // is much more opaque than the pane's face.
  const float front = shape.max.z + t;
  const float ground = kDamBreakEnvironment.ground_height;
  auto seen_through_front = [&](glm::vec3 ground_point) {
    // Where the camera ray to a ground point crosses the near wall: must lie on the pane.
    const glm::vec3 eye(u.camera_position);
    const float s = (front - eye.z) / (ground_point.z - eye.z);
    const glm::vec3 on_wall = eye + s * (ground_point - eye);
    return on_wall.x > shape.min.x + 0.05f && on_wall.x < shape.max.x - 0.05f && on_wall.y > shape.min.y + 0.05f;
  };
  const glm::vec3 cell_a(0.65f, ground, 0.15f), cell_b(0.75f, ground, 0.15f);  // adjoining 10 cm tiles
  REQUIRE(seen_through_front(cell_a));
  REQUIRE(seen_through_front(cell_b));
  const auto pa = pixel_of(u, cell_a), pb = pixel_of(u, cell_b);
  REQUIRE(pa);
  REQUIRE(pb);
  const float contrast_plain = std::abs(luminance(rgb_near(plain, *pa)) - luminance(rgb_near(plain, *pb)));
  const float contrast_glass = std::abs(luminance(rgb_near(glass, *pa)) - luminance(rgb_near(glass, *pb)));
  INFO("checker contrast " << contrast_plain << " without the tank, " << contrast_glass << " through its near wall");
  CHECK(contrast_plain > 20.0f);
  CHECK(contrast_glass > 0.6f * contrast_plain);
  const float pane_change = largest_difference(rgb_near(glass, *pa), rgb_near(plain, *pa));
  CHECK(pane_change > 1.0f);  // but the glass is there

  const auto edge = pixel_of(u, {shape.max.x + 0.5f * t, 0.4f, front});
  REQUIRE(edge);
  const float edge_change = largest_difference(rgb_at(glass, *edge), rgb_at(plain, *edge));
  INFO("change at the near vertical edge " << edge_change << ", through the pane " << pane_change);
  CHECK(edge_change > 3.0f * pane_change);
}

namespace {

// Ground points around a box and a pipe, sorted by whether the sun reaches them past both and
// kept where the camera sees them past both, well clear of the shadow's edges: how many are in
// shadow and in the sun, and how many of each are darker in `image` than in `reference`.
struct ShadowCount {
  size_t shadowed = 0, lit = 0, darkened_shadowed = 0, darkened_lit = 0;
};

ShadowCount count_shadowed_ground(const passes::FrameUniforms& u, const RgbaImage& image, const RgbaImage& reference,
                                  const SolidShape& box, const SolidShape& pipe) {
  const glm::vec3 sun = glm::normalize(glm::vec3(u.sun_direction));
  const glm::vec3 eye(u.camera_position);
  const float ground = u.ground_color_a.w;
  // The pipe as its bounding box: conservative for both "in its shadow" and "hidden by it".
  const float outer = pipe.radius + pipe.thickness;
  const glm::vec3 pipe_lo(pipe.center.x - pipe.length, pipe.center.y - outer, pipe.center.z - outer);
  const glm::vec3 pipe_hi(pipe.center.x, pipe.center.y + outer, pipe.center.z + outer);
  auto in_shadow = [&](glm::vec3 p, float grow) {
    return hits_box(p, sun, 10.0f, box.min - grow, box.max + grow) || hits_box(p, sun, 10.0f, pipe_lo - grow, pipe_hi + grow);
  };
  ShadowCount count;
  for (float x = -1.0f; x <= 2.0f; x += 0.025f)
    for (float z = -1.0f; z <= 1.5f; z += 0.025f) {
      const glm::vec3 p(x, ground, z);
      const auto pixel = pixel_of(u, p);
      if (!pixel || pixel->x < 3 || pixel->y < 3 || pixel->x >= int(kExtent.width) - 3 || pixel->y >= int(kExtent.height) - 3)
        continue;
      const glm::vec3 to_eye = eye - p;
      const glm::vec3 view = glm::normalize(to_eye);
      if (hits_box(p, view, glm::length(to_eye), box.min - 0.02f, box.max + 0.02f) ||
          hits_box(p, view, glm::length(to_eye), pipe_lo - 0.02f, pipe_hi + 0.02f))
        continue;
      const bool shadowed = in_shadow(p, 0.0f);
      if (shadowed ? !in_shadow(p, -0.03f) : in_shadow(p, 0.03f)) continue;
      const float ratio = luminance(rgb_near(image, *pixel)) / std::max(luminance(rgb_near(reference, *pixel)), 1.0f);
      if (shadowed) {
        ++count.shadowed;
        count.darkened_shadowed += ratio < 0.8f;
      } else {
        ++count.lit;
        count.darkened_lit += ratio < 0.97f;
      }
    }
  return count;
}

}  // namespace

TEST_CASE("solids: the waterfall's block and pipe are opaque, lit like the ground, and shadow it away from the sun",
          "[render][solids]") {
  Context context(ContextOptions{.validation = true});
  SolidsFrame frame(context);
  const std::vector<SolidShape> shapes = passes::solids_of(waterfall_params());
  const SolidShape& box = shapes[1];
  passes::SolidsPass tank_only(context, {shapes[0]});
  passes::SolidsPass all(context, shapes);

  const passes::FrameUniforms u = frame_uniforms(kDamBreakCamera, kDamBreakEnvironment);
  const RgbaImage glass = frame.render(u, &tank_only);
  const RgbaImage solid = frame.render(u, &all);
  save(glass, "waterfall_tank_only");
  save(solid, "waterfall_solids");
  save(frame.render(frame_uniforms(kWaterfallCamera, kDamBreakEnvironment), &all), "waterfall_solids_scene_camera");

  // The block is solid: the ground's checkers, which show through the glass where the block's
  // top will be, are gone from it. And it is lit: its top brighter than the face turned halfway
  // from the sun, and about as bright as the light ground tiles (albedo 0.52 against 0.55).
  const std::vector<glm::vec3> top_points = grid({0.1f, 0.1f}, {0.8f, 0.5f}, box.max.y);
  const float through_glass = luminance_spread(glass, u, top_points), on_top = luminance_spread(solid, u, top_points);
  INFO("luminance spread over the block's top: " << through_glass << " before, " << on_top << " with the block");
  CHECK(through_glass > 20.0f);
  CHECK(on_top < 10.0f);
  const auto top = pixel_of(u, {0.6f, box.max.y, 0.45f});
  REQUIRE(top);
  const auto side = pixel_of(u, {0.6f, 0.25f, box.max.z});  // faces +z: n.l = 0.39, the top 0.78
  REQUIRE(side);
  INFO("block top " << luminance(rgb_near(solid, *top)) << ", side " << luminance(rgb_near(solid, *side)));
  CHECK(luminance(rgb_near(solid, *top)) > luminance(rgb_near(solid, *side)) + 15.0f);

  // The dam break's sun stands behind its camera, so the shadows fall behind the block: seen
  // from the other side, the ground the geometry puts in the block's and pipe's shadow is dark
  // and the ground in the sun is untouched.
  const passes::FrameUniforms shade = frame_uniforms(kShadeSideCamera, kDamBreakEnvironment);
  const RgbaImage shade_glass = frame.render(shade, &tank_only);
  const RgbaImage shade_solid = frame.render(shade, &all);
  save(shade_solid, "waterfall_solids_shade_side");
  CHECK(context.validation_error_count() == 0);
  const ShadowCount count = count_shadowed_ground(shade, shade_solid, shade_glass, box, shapes[2]);
  INFO(count.shadowed << " ground points in shadow (" << count.darkened_shadowed << " darkened), " << count.lit
                      << " in the sun (" << count.darkened_lit << " darkened)");
  CHECK(count.shadowed > 100);
  CHECK(count.lit > 500);
  CHECK(count.darkened_shadowed >= count.shadowed * 98 / 100);
  CHECK(count.darkened_lit <= count.lit / 200);
}

TEST_CASE("solids: a shadow map with nothing in it leaves the ground exactly as without one", "[render][solids]") {
  Context context(ContextOptions{.validation = true});
  SolidsFrame frame(context);
  const passes::FrameUniforms u = frame_uniforms(kDamBreakCamera, kDamBreakEnvironment);
  passes::SolidsPass none(context, {});
  const RgbaImage plain = frame.render(u, nullptr);
  const RgbaImage empty = frame.render(u, &none);
  CHECK(context.validation_error_count() == 0);
  REQUIRE(plain.pixels.size() == empty.pixels.size());
  CHECK(plain.pixels == empty.pixels);
  // Not a blank frame: the sky and the checkered ground.
  const auto [lo, hi] = std::minmax_element(plain.pixels.begin(), plain.pixels.end());
  CHECK(int(*hi) - int(*lo) > 50);
}

TEST_CASE("solids: the fluid sits between the tank's far glass and its near glass", "[render][solids]") {
  Context context(ContextOptions{.validation = true});
  SolidsFrame frame(context, surge_particles());
  const passes::FrameUniforms u = frame_uniforms(kDamBreakCamera, kDamBreakEnvironment);
  passes::SolidsPass tank(context, passes::solids_of(dam_break_params()));
  // scenes/dam_break.toml's [pass.fluid], at half resolution to keep the test quick.
  passes::FluidSettings fluid;
  fluid.radius = 0.009f;
  fluid.resolution_divisor = 2;
  fluid.absorption = {10.0f, 4.0f, 2.0f};
  const RgbaImage water = frame.render(u, &tank, &fluid);
  const RgbaImage open = frame.render(u, &tank, &fluid, false);
  save(water, "dam_break_tank_fluid");
  CHECK(context.validation_error_count() == 0);
  // The near wall is drawn over the water: its bottom edge, in front of the deepest water, shows
  // strongly; through the pane the water still shows, only slightly veiled.
  const SolidShape& shape = tank.shapes()[0];
  const float t = shape.thickness;
  const auto edge = pixel_of(u, {0.3f, shape.min.y - 0.5f * t, shape.max.z + t});
  const auto pane = pixel_of(u, {0.3f, 0.12f, shape.max.z + t});
  REQUIRE(edge);
  REQUIRE(pane);
  const float edge_change = largest_difference(rgb_at(water, *edge), rgb_at(open, *edge));
  const float pane_change = largest_difference(rgb_near(water, *pane), rgb_near(open, *pane));
  INFO("near glass over the water: " << edge_change << " at its edge, " << pane_change << " through the pane");
  CHECK(edge_change > 15.0f);
  CHECK(pane_change > 0.5f);
  CHECK(pane_change < 15.0f);
}

TEST_CASE("solids: a plane in the tank is a solid ramp that hides the ground and shades it", "[render][solids]") {
  Context context(ContextOptions{.validation = true});
  SolidsFrame frame(context);
  const passes::FrameUniforms u = frame_uniforms(kDamBreakCamera, kDamBreakEnvironment);
  sim::SphParams params = dam_break_params();
  params.planes.push_back({{0.0f, 0.3f, 0.0f}, {0.4f, 1.0f, 0.0f}});  // y = 0.3 - 0.4 x: down towards +x
  passes::SolidsPass tank(context, passes::solids_of(dam_break_params()));
  passes::SolidsPass ramp(context, passes::solids_of(params));
  const RgbaImage glass = frame.render(u, &tank);
  const RgbaImage solid = frame.render(u, &ramp);
  save(solid, "dam_break_ramp");
  CHECK(context.validation_error_count() == 0);
  // The ramp's slope, seen through the near wall: checkers before, one lit surface after.
  const std::vector<glm::vec3> slope = grid({0.05f, 0.05f}, {0.7f, 0.25f}, 0.3f, {-0.4f, 0.0f});
  const float before = luminance_spread(glass, u, slope), after = luminance_spread(solid, u, slope);
  INFO("luminance spread over the slope: " << before << " before, " << after << " with the ramp");
  CHECK(before > 20.0f);
  CHECK(after < 10.0f);
}

}  // namespace meniscus
