#pragma once
// Point-cloud analysis from k nearest neighbours (Zhou et al. 2008, Appendix B): the local
// sampling density rho_i = k / r_i^2 and normals by principal component analysis of each point's
// neighbours (Hoppe et al. 1992), made consistent by propagation along a minimum spanning tree.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "sim/kdtree/knn.h"

namespace meniscus::sim::kdtree {

struct PointCloudAnalysis {
  std::vector<float> density;       // k / r_k^2; +inf where k points coincide
  std::vector<glm::vec3> normals;   // unit length, consistently oriented per component
  uint32_t components = 0;          // parts of the neighbour graph, each oriented on its own
};

// The eigenvector of the smallest eigenvalue of the covariance of `points[indices]`: the normal
// of the best-fitting plane (any unit vector orthogonal to a line for collinear points).
glm::vec3 pca_normal(std::span<const glm::vec3> points, std::span<const uint32_t> indices);

// Hoppe's orientation: a minimum spanning tree of the neighbour graph with edge cost
// 1 - |n_i . n_j|, grown (Prim) from the point of greatest z in each component with its normal
// pointing to +z, flipping each normal that disagrees with its tree parent's.
uint32_t orient_normals(std::span<const glm::vec3> points, const KnnResult& neighbours, std::vector<glm::vec3>& normals);

// Density and oriented normals for the points the KNN result was computed over (knn_all).
PointCloudAnalysis analyse_point_cloud(std::span<const glm::vec3> points, const KnnResult& neighbours);

}  // namespace meniscus::sim::kdtree
