// The packet walk of triangle_packet.cpp, included there once per target (AVX-512, AVX2) inside
// a region that builds every function here for that target: GCC lowers a function's vector
// operations for its own target before inlining it, so helpers built for the baseline would
// bring their 16-lane compares in as scalar code.
//
// Not a header: it defines functions in whatever namespace includes it, for that namespace's
// kWidth lanes: one register of the target (a wider vector was lowered lane by lane).

typedef float Floats __attribute__((vector_size(4 * kWidth)));
typedef int32_t Lanes __attribute__((vector_size(4 * kWidth)));  // -1 where true, 0 where not

// The set lanes as bits, lane i in bit i: one instruction (a loop over the lanes stayed a loop
// of extractions).
template <class Vector>  // Lanes; a template, so that only this target's branch is compiled
[[gnu::always_inline]] inline uint32_t bits(const Vector& lanes) {
  if constexpr (kWidth == 16) {
    const __m512i all = (__m512i)lanes;
    return _mm512_test_epi32_mask(all, all);
  } else {
    return uint32_t(_mm256_movemask_ps((__m256)lanes));
  }
}
template <class Vector>
[[gnu::always_inline]] inline bool any(const Vector& lanes) {
  return bits(lanes) != 0;
}
[[gnu::always_inline]] inline Floats select(const Lanes& where, const Floats& a, const Floats& b) {
  return (Floats)(((Lanes)a & where) | ((Lanes)b & ~where));
}
[[gnu::always_inline]] inline Lanes select(const Lanes& where, const Lanes& a, const Lanes& b) {
  return (a & where) | (b & ~where);
}
[[gnu::always_inline]] inline Floats absolute(const Floats& a) { return (Floats)((Lanes)a & 0x7fffffff); }

// A group's rays in lanes, and which lanes the walk serves.
struct Packet {
  Floats origin[3], inverse[3], direction[3], t_min, t_max;
  Lanes lanes;
  uint32_t downward;  // bit a: the rays head down axis a (traversal's `downward`, shared)
};

// Each lane's closest hit so far: t, barycentrics, its triangle and that triangle's entry in
// the tree's leaf arrays (-1: none yet).
struct PacketHits {
  Floats t, u, v;
  Lanes triangle, entry;
};

// Möller–Trumbore of every live lane against one leaf triangle, written as intersect_edges is
// (glm's cross and dot, term by term); a closer hit, or an equal one of a lower id, replaces the
// lane's. Returns the lanes that took this triangle.
[[gnu::always_inline]] inline Lanes test_triangle(const Packet& p, const LeafTriangle& g, uint32_t entry,
                                                  uint32_t triangle, const Lanes& live, PacketHits& best) {
  const Floats px = p.direction[1] * g.e2.z - g.e2.y * p.direction[2];
  const Floats py = p.direction[2] * g.e2.x - g.e2.z * p.direction[0];
  const Floats pz = p.direction[0] * g.e2.y - g.e2.x * p.direction[1];
  const Floats det = g.e1.x * px + g.e1.y * py + g.e1.z * pz;
  const Floats inverse = 1.0f / det;
  const Floats sx = p.origin[0] - g.a.x, sy = p.origin[1] - g.a.y, sz = p.origin[2] - g.a.z;
  const Floats u = (sx * px + sy * py + sz * pz) * inverse;
  const Floats qx = sy * g.e1.z - g.e1.y * sz, qy = sz * g.e1.x - g.e1.z * sx, qz = sx * g.e1.y - g.e1.x * sy;
  const Floats v = (p.direction[0] * qx + p.direction[1] * qy + p.direction[2] * qz) * inverse;
  const Floats t = (g.e2.x * qx + g.e2.y * qy + g.e2.z * qz) * inverse;
  // The tests in intersect_edges' form, so that NaNs pass or fail them alike: a NaN t_max is no
  // limit (test_leaf's min keeps it), a NaN u or v is not outside.
  const Floats t_max = p.t_max < best.t ? p.t_max : best.t;
  const Lanes outside = (u < 0.0f) | (u > 1.0f) | (v < 0.0f) | (u + v > 1.0f);
  Lanes hit = live & (det != 0.0f) & (absolute(det) <= std::numeric_limits<float>::max()) & ~outside &
              (t >= p.t_min) & (t <= t_max);
  if (!any(hit)) return hit;
  // An equal t keeps the lower id (test_leaf's rule). Ids are below 2^30: signed compares hold.
  const Lanes id = Lanes{} + int32_t(triangle);
  hit &= (t < best.t) | ((t == best.t) & ((id < best.triangle) | (best.triangle < 0)));
  best.t = select(hit, t, best.t);
  best.u = select(hit, u, best.u);
  best.v = select(hit, v, best.v);
  best.triangle = select(hit, id, best.triangle);
  best.entry = select(hit, Lanes{} + int32_t(entry), best.entry);
  return hit;
}

// The walk of traverse<false>, for every lane of `p` at once. False when a split's t is NaN for
// a lane (its ray runs in the split's plane, or has a NaN): those groups are traced one ray at
// a time.
[[gnu::always_inline]] inline bool walk(const TriangleKdView& tree, const Packet& p, PacketHits& best) {
  using namespace traversal;
  best.t = Floats{} + std::numeric_limits<float>::infinity();
  best.u = best.v = Floats{};
  best.triangle = best.entry = Lanes{} - 1;
  // The root box's slab test, as clip_to_box computes it lane by lane.
  Floats t0 = p.t_min, t1 = p.t_max;
  const glm::vec3 pad = kRelativeSlack * (tree.hi - tree.lo) + kRelativeSlack * glm::abs(tree.hi + tree.lo);
  const glm::vec3 box_lo = tree.lo - pad, box_hi = tree.hi + pad;
  for (int axis = 0; axis < 3; ++axis) {
    const Floats a = (box_lo[axis] - p.origin[axis]) * p.inverse[axis];
    const Floats b = (box_hi[axis] - p.origin[axis]) * p.inverse[axis];
    const Lanes swap = a > b;
    const Floats near = select(swap, b, a), far = select(swap, a, b);
    t0 = select(near == near, t0 > near ? t0 : near, t0);
    t1 = select(far == far, t1 < far ? t1 : far, t1);
  }
  Lanes live = p.lanes & (t0 <= t1) & (t0 < std::numeric_limits<float>::infinity());
  Lanes done = ~live;
  struct Pending {
    Floats t_min, t_max;
    Lanes lanes;
    uint32_t node;
  };
  Pending stack[kStackSize];  // one far child per level at most, as in traverse
  int top = 0;
  uint32_t node = 0;
  while (any(live)) {
    const TriangleKdNode n = tree.nodes[node];
    if (!n.is_leaf()) {
      const uint32_t axis = n.axis();
      const Floats t_split = (n.split() - p.origin[axis]) * p.inverse[axis];
      if (any(live & (t_split != t_split))) return false;
      const bool right_near = (p.downward >> axis) & 1u;
      const uint32_t near = right_near ? n.right_or_first() : node + 1;
      const uint32_t far = right_near ? node + 1 : n.right_or_first();
      const Floats wide_t0 = t0 - kRelativeSlack * absolute(t0), wide_t1 = t1 + kRelativeSlack * absolute(t1);
      const Lanes to_far = live & (t_split <= wide_t1), to_near = live & (t_split >= wide_t0);
      if (!any(to_far)) {
        node = near;
      } else if (!any(to_near)) {
        node = far;
      } else {
        const Floats split = t_split > t0 ? (t_split < t1 ? t_split : t1) : t0;
        stack[top++] = {split, t1, to_far, far};
        t1 = split;
        live = to_near;
        node = near;
      }
      continue;
    }
    const uint32_t first = n.right_or_first(), count = n.count();
    Lanes found{};
    for (uint32_t k = 0; k < count; ++k)
      found |= test_triangle(p, tree.leaf_geometry[first + k], first + k, tree.leaf_triangles[first + k], live, best);
    // A lane whose hit in this leaf lies within the leaf's interval is done.
    done |= found & (best.t <= t1);
    live = Lanes{};
    while (top > 0 && !any(live)) {
      const Pending& next = stack[--top];
      node = next.node;
      t0 = next.t_min;
      t1 = next.t_max;
      done |= next.lanes & (best.entry >= 0) & (best.t < t0);  // nothing beyond can be closer
      live = next.lanes & ~done;
    }
  }
  return true;
}

// The rays' hits; returns how many of them walked in a packet.
uint32_t trace_group(const TriangleKdView& tree, const Ray* rays, uint32_t count, RayHit* hits) {
  Packet p;
  for (uint32_t i = 0; i < kWidth; ++i) {
    const Ray& r = rays[i < count ? i : 0];
    for (int axis = 0; axis < 3; ++axis) {
      p.origin[axis][i] = r.origin[axis];
      p.direction[axis][i] = r.direction[axis];
    }
    p.t_min[i] = r.t_min;
    p.t_max[i] = r.t_max;
  }
  for (int axis = 0; axis < 3; ++axis) p.inverse[axis] = 1.0f / p.direction[axis];
  // Each lane's octant, traversal's `downward` bits (the sign bit, -0 included).
  const Lanes octant = (((Lanes)p.direction[0] < 0) & 1) | (((Lanes)p.direction[1] < 0) & 2) |
                       (((Lanes)p.direction[2] < 0) & 4);
  Lanes lane_index;
  for (uint32_t i = 0; i < kWidth; ++i) lane_index[i] = int32_t(i);
  // The group's rays octant by octant: those of the first remaining ray's walk as a packet,
  // a lone one (or a packet with a lane in a split's plane) one ray at a time.
  Lanes remaining = lane_index < int32_t(count);
  uint32_t in_packets = 0;
  while (const uint32_t left = bits(remaining)) {
    const int32_t first = __builtin_ctz(left);
    p.downward = uint32_t(octant[first]);
    p.lanes = remaining & (octant == int32_t(p.downward));
    remaining &= ~p.lanes;
    const uint32_t walked = bits(p.lanes);

    PacketHits best;
    if (__builtin_popcount(walked) < 2 || !tree.nodes || !walk(tree, p, best)) {
      for (uint32_t lanes = walked; lanes; lanes &= lanes - 1) {
        const uint32_t i = __builtin_ctz(lanes);
        hits[i] = traverse<false>(tree, rays[i]);
      }
      continue;
    }
    in_packets += __builtin_popcount(walked);
    for (uint32_t lanes = walked; lanes; lanes &= lanes - 1) {
      const uint32_t i = __builtin_ctz(lanes);
      RayHit hit;
      if (best.entry[i] >= 0) {
        const uint32_t entry = uint32_t(best.entry[i]);
        hit.t = best.t[i];
        hit.u = best.u[i];
        hit.v = best.v[i];
        hit.triangle = uint32_t(best.triangle[i]);
        hit.normal = glm::cross(tree.leaf_geometry[entry].e1, tree.leaf_geometry[entry].e2);
      }
      hits[i] = hit;
    }
  }
  return in_packets;
}
