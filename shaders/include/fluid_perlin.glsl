// 2D Perlin gradient noise (Perlin 2002's quintic fade), hashed lattice gradients so no
// permutation table has to be bound. Returns roughly [-1, 1].
uint fluid_hash(uvec2 v, uint seed) {
  uint h = v.x * 0x8da6b343u ^ v.y * 0xd8163841u ^ seed * 0xcb1ab31fu;
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

vec2 fluid_gradient(ivec2 cell, uint seed) {
  float angle = float(fluid_hash(uvec2(cell), seed) & 0xffffu) * (6.28318531 / 65536.0);
  return vec2(cos(angle), sin(angle));
}

float perlin(vec2 p, uint seed) {
  ivec2 i = ivec2(floor(p));
  vec2 f = fract(p);
  vec2 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  float a = dot(fluid_gradient(i, seed), f);
  float b = dot(fluid_gradient(i + ivec2(1, 0), seed), f - vec2(1, 0));
  float c = dot(fluid_gradient(i + ivec2(0, 1), seed), f - vec2(0, 1));
  float d = dot(fluid_gradient(i + ivec2(1, 1), seed), f - vec2(1, 1));
  return 1.41421356 * mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}
