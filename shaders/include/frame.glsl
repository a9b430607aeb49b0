// Per-frame camera and environment, written by the host each frame (mirrors
// passes/common/frame_uniforms.h; std430, so every member is a vec4 or mat4).
struct Frame {
  mat4 view;
  mat4 proj;
  mat4 view_proj;
  mat4 inv_view_proj;
  vec4 camera_position;  // xyz; w = time in seconds
  vec4 sun_direction;    // xyz points towards the sun; w = intensity
  vec4 sun_color;        // rgb; w = exposure
  vec4 sky_zenith;       // rgb
  vec4 sky_horizon;      // rgb
  vec4 ground_color_a;   // rgb; w = ground height
  vec4 ground_color_b;   // rgb; w = checker tile size
  vec4 viewport;         // width, height, 1/width, 1/height
  vec4 flags;            // x = ground enabled, y = near, z = far
};
