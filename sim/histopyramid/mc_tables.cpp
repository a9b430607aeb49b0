#include "sim/histopyramid/mc_tables.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <vector>

namespace meniscus::sim::mc {
namespace {

struct Vec {
  double x, y, z;
};
Vec operator-(Vec a, Vec b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec operator+(Vec a, Vec b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
double dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

Vec corner_position(int c) { return {double(c & 1), double((c >> 1) & 1), double((c >> 2) & 1)}; }

std::array<Edge, 12> make_edges() {
  std::array<Edge, 12> out{};
  int n = 0;
  for (uint8_t axis = 0; axis < 3; ++axis)
    for (uint8_t c = 0; c < 8; ++c)
      if (!(c & (1 << axis))) out[n++] = {c, uint8_t(c | (1 << axis)), axis};
  return out;
}

int edge_between(const std::array<Edge, 12>& edges, int a, int b) {
  if (a > b) std::swap(a, b);
  for (int e = 0; e < 12; ++e)
    if (edges[e].a == a && edges[e].b == b) return e;
  throw std::logic_error("corners not adjacent");
}

// The six faces, each as its four corners in cyclic order.
std::vector<std::array<int, 4>> faces() {
  std::vector<std::array<int, 4>> out;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = 1 << ((axis + 1) % 3), v = 1 << ((axis + 2) % 3);
    for (int side = 0; side < 2; ++side) {
      const int base = side ? (1 << axis) : 0;
      out.push_back({base, base | u, base | u | v, base | v});
    }
  }
  return out;
}

// True when cube edges e and f lie on a common face: a chord between them would lie in that
// face, where the neighbouring cell could draw the same chord, making a non-manifold edge.
bool share_face(const std::array<Edge, 12>& edges, int e, int f) {
  for (const auto& face : faces()) {
    auto on = [&](int edge) {
      int hits = 0;
      for (int c : face) hits += (edges[edge].a == c) + (edges[edge].b == c);
      return hits == 2;
    };
    if (on(e) && on(f)) return true;
  }
  return false;
}

// Triangulates a loop by clipping ears whose new chord never lies in a cube face (searching
// over the choices). Returns false when no such triangulation exists.
bool triangulate(const std::array<Edge, 12>& edges, std::vector<int> loop, std::vector<std::array<int, 3>>& out) {
  if (loop.size() == 3) {
    out.push_back({loop[0], loop[1], loop[2]});
    return true;
  }
  const size_t n = loop.size();
  for (size_t i = 0; i < n; ++i) {
    const int prev = loop[(i + n - 1) % n], ear = loop[i], next = loop[(i + 1) % n];
    if (share_face(edges, prev, next)) continue;
    std::vector<int> rest;
    for (size_t j = 0; j < n; ++j)
      if (j != i) rest.push_back(loop[j]);
    const size_t mark = out.size();
    out.push_back({prev, ear, next});
    if (triangulate(edges, rest, out)) return true;
    out.resize(mark);
  }
  return false;
}

Case make_case(int index, const std::array<Edge, 12>& edges) {
  auto inside = [&](int c) { return (index >> c) & 1; };
  // Each crossing edge gets two neighbours, one from each face it lies on.
  std::array<std::vector<int>, 12> links;
  for (const auto& f : faces()) {
    std::vector<int> crossing;  // in cyclic order around the face
    for (int i = 0; i < 4; ++i) {
      const int a = f[i], b = f[(i + 1) % 4];
      if (inside(a) != inside(b)) crossing.push_back(edge_between(edges, a, b));
    }
    if (crossing.empty()) continue;
    if (crossing.size() == 2) {
      links[crossing[0]].push_back(crossing[1]);
      links[crossing[1]].push_back(crossing[0]);
      continue;
    }
    // Ambiguous face: two inside corners on a diagonal. Separate them: join the two crossing
    // edges that meet at each inside corner.
    for (int i = 0; i < 4; ++i) {
      if (!inside(f[i])) continue;
      const int before = edge_between(edges, f[(i + 3) % 4], f[i]);
      const int after = edge_between(edges, f[i], f[(i + 1) % 4]);
      links[before].push_back(after);
      links[after].push_back(before);
    }
  }

  Case out;
  std::array<bool, 12> used{};
  for (int start = 0; start < 12; ++start) {
    if (links[start].empty() || used[start]) continue;
    assert(links[start].size() == 2);
    std::vector<int> loop{start};
    used[start] = true;
    int previous = start, current = links[start][0];
    while (current != start) {
      loop.push_back(current);
      used[current] = true;
      const int next = links[current][0] == previous ? links[current][1] : links[current][0];
      previous = current;
      current = next;
    }
    // Orientation: Newell normal of the loop through edge midpoints vs. the inside-to-outside
    // direction summed over its edges.
    Vec normal{0, 0, 0}, outward{0, 0, 0};
    for (size_t i = 0; i < loop.size(); ++i) {
      const Edge& e = edges[loop[i]];
      const Edge& n = edges[loop[(i + 1) % loop.size()]];
      const Vec p = corner_position(e.a) + corner_position(e.b);
      const Vec q = corner_position(n.a) + corner_position(n.b);
      normal = normal + Vec{(p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y)};
      outward = outward + (inside(e.a) ? corner_position(e.b) - corner_position(e.a)
                                       : corner_position(e.a) - corner_position(e.b));
    }
    if (dot(normal, outward) < 0) std::reverse(loop.begin(), loop.end());
    std::vector<std::array<int, 3>> triangles;
    if (!triangulate(edges, loop, triangles)) throw std::logic_error("marching cubes: no face-free triangulation");
    for (const auto& tri : triangles) {
      if (out.triangles >= kMaxTriangles) throw std::logic_error("marching cubes: case exceeds kMaxTriangles");
      uint8_t* t = out.edges + out.triangles * 3;
      for (int k = 0; k < 3; ++k) t[k] = uint8_t(tri[k]);
      ++out.triangles;
    }
  }
  return out;
}

}  // namespace

const std::array<Edge, 12>& edges() {
  static const std::array<Edge, 12> table = make_edges();
  return table;
}

const std::array<Case, 256>& cases() {
  static const std::array<Case, 256> table = [] {
    std::array<Case, 256> t{};
    for (int i = 0; i < 256; ++i) t[i] = make_case(i, edges());
    return t;
  }();
  return table;
}

int max_triangles() {
  int most = 0;
  for (const Case& c : cases()) most = std::max(most, int(c.triangles));
  return most;
}

}  // namespace meniscus::sim::mc
