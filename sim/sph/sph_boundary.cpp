#include "sim/sph/sph_boundary.h"

#include <algorithm>
#include <cmath>

#include "sim/sph/sph_cell_sort.h"
#include "sim/sph/sph_grid.h"

namespace meniscus::sim::sph {
namespace {

constexpr int kLayers = 2;  // the kernel's support is two lattice spacings

bool inside(const SphBox& box, Vec3 p) {
  return p.x >= box.min[0] && p.x <= box.max[0] && p.y >= box.min[1] && p.y <= box.max[1] && p.z >= box.min[2] &&
         p.z <= box.max[2];
}

// The lattice sites along one axis of [lo, hi] a fluid lattice would use (centres half a
// spacing in from each face, spacing stretched so they fit exactly), plus `outer` more sites
// beyond each face. A site's layer is its distance in sites from the nearest face's side:
// negative outside [lo, hi], 0.. inside.
struct AxisSites {
  std::vector<float> position;
  std::vector<int> depth;  // outside: -1, -2 (layers beyond the face); inside: sites from the face
  float spacing;
};

AxisSites axis_sites(float lo, float hi, float d, int outer) {
  AxisSites a;
  const int n = std::max(1, int(std::lround((hi - lo) / d)));
  a.spacing = (hi - lo) / float(n);
  for (int k = -outer; k < n + outer; ++k) {
    a.position.push_back(lo + (k + 0.5f) * a.spacing);
    a.depth.push_back(k < 0 ? k : (k >= n ? n - 1 - k : std::min(k, n - 1 - k)));
  }
  return a;
}

// The domain's walls: the layers just outside it, edges and corners included.
void sample_domain_shell(const SphBox& domain, float d, std::vector<Vec3>& out, float& cell_volume) {
  AxisSites axes[3];
  for (int a = 0; a < 3; ++a) axes[a] = axis_sites(domain.min[a], domain.max[a], d, kLayers);
  cell_volume = axes[0].spacing * axes[1].spacing * axes[2].spacing;
  for (size_t z = 0; z < axes[2].position.size(); ++z)
    for (size_t y = 0; y < axes[1].position.size(); ++y)
      for (size_t x = 0; x < axes[0].position.size(); ++x)
        if (axes[0].depth[x] < 0 || axes[1].depth[y] < 0 || axes[2].depth[z] < 0)
          out.push_back({axes[0].position[x], axes[1].position[y], axes[2].position[z]});
}

// A solid box: its outer layers (inside the box), where they lie inside the domain.
void sample_box_solid(const SphBox& box, const SphBox& domain, float d, std::vector<Vec3>& out, std::vector<float>& cells) {
  AxisSites axes[3];
  for (int a = 0; a < 3; ++a) axes[a] = axis_sites(box.min[a], box.max[a], d, 0);
  const float cell = axes[0].spacing * axes[1].spacing * axes[2].spacing;
  for (size_t z = 0; z < axes[2].position.size(); ++z)
    for (size_t y = 0; y < axes[1].position.size(); ++y)
      for (size_t x = 0; x < axes[0].position.size(); ++x) {
        const int depth = std::min({axes[0].depth[x], axes[1].depth[y], axes[2].depth[z]});
        const Vec3 p{axes[0].position[x], axes[1].position[y], axes[2].position[z]};
        if (depth < kLayers && inside(domain, p)) {
          out.push_back(p);
          cells.push_back(cell);
        }
      }
}

// A plane: layers behind it (against the normal), where they lie inside the domain.
void sample_plane_solid(const SphPlane& plane, const SphBox& domain, float d, std::vector<Vec3>& out) {
  Vec3 n, u, v;
  tangent_frame(vec(plane.normal), n, u, v);
  const Vec3 lo = vec(domain.min), hi = vec(domain.max);
  const Vec3 centre = 0.5f * (lo + hi);
  const Vec3 foot = centre - dot(centre - vec(plane.point), n) * n;
  const int reach = int(std::ceil(0.5f * length(hi - lo) / d)) + 1;
  for (int layer = 0; layer < kLayers; ++layer)
    for (int a = -reach; a <= reach; ++a)
      for (int b = -reach; b <= reach; ++b) {
        const Vec3 p = foot + (float(a) * d) * u + (float(b) * d) * v - ((layer + 0.5f) * d) * n;
        if (inside(domain, p)) out.push_back(p);
      }
}

}  // namespace

Boundary sample_boundary(const SphParams& params, float lattice_volume) {
  const float d = params.diameter();
  const float per_cell = lattice_volume / (d * d * d);  // Psi of a site of a cell of volume d^3
  std::vector<Vec3> samples;
  std::vector<float> cells;
  float domain_cell = 0.0f;
  sample_domain_shell(params.domain, d, samples, domain_cell);
  cells.assign(samples.size(), domain_cell);
  for (const SphBoxCollider& box : params.boxes) sample_box_solid(box.box, params.domain, d, samples, cells);
  for (const SphPlane& plane : params.planes) {
    sample_plane_solid(plane, params.domain, d, samples);
    cells.resize(samples.size(), d * d * d);
  }

  const GridShape grid = grid_over(vec(params.domain.min), vec(params.domain.max), params.support());
  const std::vector<uint32_t> rank = z_order_ranks(grid);
  CellSort sort;
  sort.sort(grid, rank, samples.data(), uint32_t(samples.size()));
  Boundary boundary;
  boundary.position.resize(samples.size());
  boundary.volume.resize(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    boundary.position[i] = samples[sort.order()[i]];
    boundary.volume[i] = per_cell * cells[sort.order()[i]];
  }
  return boundary;
}

}  // namespace meniscus::sim::sph
