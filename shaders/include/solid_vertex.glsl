// One vertex of the solids' triangle list (mirrors passes/solids/solids_mesh.h; std430).
struct SolidVertex {
  vec4 position;  // w = material kind: 0 stone, 1 metal, 2 glass
  vec4 normal;    // w = ambient occlusion
  vec4 color;     // w = roughness; glass: wall thickness
  vec4 panel;     // glass: position on its panel (xy) and the panel's size (zw), metres
};

const float kSolidStone = 0.0;
const float kSolidMetal = 1.0;
const float kSolidGlass = 2.0;
