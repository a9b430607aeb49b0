// The MIP level images share one buffer of uints: level k is (width0 >> k) x (height0 >> k)
// pixels of the padded volume's projection, stored after levels 0..k-1.
uint mip_level_offset(uint level, uint width0, uint height0) {
  uint offset = 0u;
  for (uint k = 0u; k < level; ++k) offset += (width0 >> k) * (height0 >> k);
  return offset;
}

// Image coordinates of voxel p seen along `axis` (0: x, 1: y, 2: z), as sim/mip/axis_mip.h.
uvec2 mip_image_coordinates(uvec3 p, uint axis) {
  return axis == 0u ? p.yz : axis == 1u ? p.xz : p.xy;
}
