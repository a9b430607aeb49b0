// Screen-space mean curvature of a view-depth image (thesis Eq. 5.3-5.8), shared by the
// curvature-flow step and the colour-coded curvature debug view, so both see the same H.
//
// Derivatives are finite differences in pixels. Where a neighbour is missing (no fluid, off
// screen) or across a depth discontinuity (|dz| > edge), the derivatives in that direction are
// forced to zero: the thesis' boundary condition that keeps separate patches of surface from
// being blended together.
//
// The includer defines `float fluid_load(ivec2)` first: the depth at a pixel, 0 for no fluid
// and for off-screen pixels.
// c = (Cx, Cy) = (2 / (Vx Fx), 2 / (Vy Fy)).


float mean_curvature(ivec2 p, float z, vec2 c, float edge) {
  float zl = fluid_load(p + ivec2(-1, 0)), zr = fluid_load(p + ivec2(1, 0));
  float zd = fluid_load(p + ivec2(0, -1)), zu = fluid_load(p + ivec2(0, 1));
  bool x_ok = zl > 0.0 && zr > 0.0 && abs(zl - z) < edge && abs(zr - z) < edge;
  bool y_ok = zd > 0.0 && zu > 0.0 && abs(zd - z) < edge && abs(zu - z) < edge;
  float dx = x_ok ? 0.5 * (zr - zl) : 0.0;
  float dxx = x_ok ? zr - 2.0 * z + zl : 0.0;
  float dy = y_ok ? 0.5 * (zu - zd) : 0.0;
  float dyy = y_ok ? zu - 2.0 * z + zd : 0.0;
  float dxy = 0.0;
  if (x_ok && y_ok) {
    float a = fluid_load(p + ivec2(1, 1)), b = fluid_load(p + ivec2(1, -1));
    float e = fluid_load(p + ivec2(-1, 1)), f = fluid_load(p + ivec2(-1, -1));
    bool ok = a > 0.0 && b > 0.0 && e > 0.0 && f > 0.0 && abs(a - z) < 2.0 * edge &&
              abs(b - z) < 2.0 * edge && abs(e - z) < 2.0 * edge && abs(f - z) < 2.0 * edge;
    dxy = ok ? 0.25 * (a - b - e + f) : 0.0;
  }
  float cx2 = c.x * c.x, cy2 = c.y * c.y;
  float d = cy2 * dx * dx + cx2 * dy * dy + cx2 * cy2 * z * z; /* Eq. 5.5 */
  float ddx = 2.0 * (cy2 * dx * dxx + cx2 * dy * dxy + cx2 * cy2 * z * dx);
  float ddy = 2.0 * (cy2 * dx * dxy + cx2 * dy * dyy + cx2 * cy2 * z * dy);
  float ex = 0.5 * dx * ddx - dxx * d; /* Eq. 5.7 */
  float ey = 0.5 * dy * ddy - dyy * d; /* Eq. 5.8 */
  return (c.y * ex + c.x * ey) / (2.0 * d * sqrt(d)); /* Eq. 5.6 */
}
