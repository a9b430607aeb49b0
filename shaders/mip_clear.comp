#version 460
// Sets the MIP level images to grey 0, the smallest value (the identity of max).
layout(local_size_x = 256) in;
layout(set = 0, binding = 0, std430) writeonly buffer Levels { uint pixels[]; };
layout(push_constant) uniform Clear { uint count; } clear;

void main() {
  for (uint i = gl_GlobalInvocationID.x; i < clear.count; i += gl_NumWorkGroups.x * 256u) pixels[i] = 0u;
}
