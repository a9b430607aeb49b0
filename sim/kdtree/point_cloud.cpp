// Density and PCA normals, parallel over points (each point reads only its own neighbours).
#include "sim/kdtree/point_cloud.h"

#include <tbb/parallel_for.h>

#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "engine/core/error.h"

namespace meniscus::sim::kdtree {
namespace {

// Cyclic Jacobi rotations on a symmetric 3x3 matrix: robust for the repeated and zero
// eigenvalues that planar and collinear neighbourhoods produce, where closed forms lose digits.
void symmetric_eigen(double a[3][3], double v[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) v[i][j] = i == j;
  for (int sweep = 0; sweep < 32; ++sweep) {
    const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    const double diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-30 * diag || off == 0.0) return;
    for (int p = 0; p < 2; ++p) {
      for (int q = p + 1; q < 3; ++q) {
        if (a[p][q] == 0.0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 3; ++k) {  // A <- A J
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {  // A <- J^T A
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; ++k) {
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
}

}  // namespace

glm::vec3 pca_normal(std::span<const glm::vec3> points, std::span<const uint32_t> indices) {
  if (indices.empty()) return {0, 0, 1};
  // Centred on the first neighbour before averaging: coordinates near 1e6 would otherwise
  // cancel in the covariance.
  const glm::dvec3 origin(points[indices[0]]);
  glm::dvec3 mean(0.0);
  for (uint32_t i : indices) mean += glm::dvec3(points[i]) - origin;
  mean /= double(indices.size());
  double a[3][3] = {};
  for (uint32_t i : indices) {
    const glm::dvec3 d = glm::dvec3(points[i]) - origin - mean;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) a[r][c] += d[r] * d[c];
  }
  double v[3][3];
  symmetric_eigen(a, v);
  int smallest = 0;
  for (int i = 1; i < 3; ++i)
    if (a[i][i] < a[smallest][smallest]) smallest = i;
  const glm::dvec3 n(v[0][smallest], v[1][smallest], v[2][smallest]);
  return glm::vec3(glm::normalize(n));
}

PointCloudAnalysis analyse_point_cloud(std::span<const glm::vec3> points, const KnnResult& neighbours) {
  if (neighbours.queries() != points.size())
    throw InputError("kdtree: point-cloud analysis needs one KNN row per point (" + std::to_string(points.size()) +
                     " points, " + std::to_string(neighbours.queries()) + " rows)");
  PointCloudAnalysis out;
  const size_t n = points.size();
  const uint32_t k = neighbours.k;
  out.density.resize(n);
  out.normals.resize(n);
  tbb::parallel_for(size_t(0), n, [&](size_t i) {
    const float r = neighbours.radius(i);
    out.density[i] = r > 0.0f ? float(k) / (r * r) : std::numeric_limits<float>::infinity();
    out.normals[i] = pca_normal(points, std::span<const uint32_t>(&neighbours.indices[i * k], k));
  });
  out.components = orient_normals(points, neighbours, out.normals);
  return out;
}

}  // namespace meniscus::sim::kdtree
