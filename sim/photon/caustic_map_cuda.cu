// CausticMapCuda (caustic_map_cuda.h): the photons' kernel, the gather of the stored ones, the
// cell centres and the irradiance of each.
#include <cub/device/device_scan.cuh>

#include "sim/common/cub_storage.cuh"
#include "sim/common/cuda_launch.cuh"
#include "sim/photon/caustic_map_cuda.h"

namespace meniscus::sim::photon {

struct CausticMapCuda::Device {
  DeviceArray<PhotonPath> paths;
  DeviceArray<uint32_t> stored_flag, stored_rank, counts;
  kdtree::DeviceCoordinates landings;  // the stored ones, in photon order
  uint32_t stored = 0;
  kdtree::DeviceKdTree tree;
  kdtree::DeviceKnn knn;
  DeviceArray<float> centre_x, centre_y, centre_z, distances, irradiance;
  CubStorage cub;
};

namespace {

constexpr uint32_t kBlock = 128;

__global__ void trace_kernel(kdtree::TriangleKdSurface surface, PhotonScene scene, uint32_t count, PhotonPath* paths) {
  const uint32_t i = blockIdx.x * kBlock + threadIdx.x;
  if (i < count) paths[i] = trace_photon(surface, scene, i);
}

// flag[i]: photon i is stored; flag[count] closes the scan. counts[fate] += 1, counted in the
// block first (one global atomic per fate and block, not per photon).
__global__ void fate_kernel(const PhotonPath* paths, uint32_t count, uint32_t* flag, uint32_t* counts) {
  __shared__ uint32_t block_counts[4];
  if (threadIdx.x < 4) block_counts[threadIdx.x] = 0;
  __syncthreads();
  const uint32_t i = blockIdx.x * kBlock + threadIdx.x;
  if (i < count) {
    const PhotonFate fate = paths[i].fate;
    flag[i] = fate == PhotonFate::kStored;
    atomicAdd(&block_counts[uint32_t(fate)], 1u);
  } else if (i == count) {
    flag[i] = 0;
  }
  __syncthreads();
  if (threadIdx.x < 4 && block_counts[threadIdx.x] > 0) atomicAdd(&counts[threadIdx.x], block_counts[threadIdx.x]);
}

__global__ void gather_kernel(const PhotonPath* paths, uint32_t count, const uint32_t* flag, const uint32_t* rank,
                              float* x, float* y, float* z) {
  const uint32_t i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= count || !flag[i]) return;
  const glm::vec3 p = paths[i].landing;
  x[rank[i]] = p.x;
  y[rank[i]] = p.y;
  z[rank[i]] = p.z;
}

__global__ void centres_kernel(FloorGrid grid, glm::vec2 step, float* x, float* y, float* z) {
  const uint32_t i = blockIdx.x * kBlock + threadIdx.x;
  if (i >= grid.width * grid.height) return;
  const glm::vec3 c = cell_centre(grid, step, i % grid.width, i / grid.width);
  x[i] = c.x;
  y[i] = c.y;
  z[i] = c.z;
}

__global__ void irradiance_kernel(const float* distances, uint32_t cells, uint32_t k, float energy, float* irradiance) {
  const uint32_t i = blockIdx.x * kBlock + threadIdx.x;
  if (i < cells) irradiance[i] = irradiance_at(energy, distances[size_t(i) * k + k - 1]);
}

}  // namespace

CausticMapCuda::CausticMapCuda() : d_(std::make_unique<Device>()) {}

CausticMapCuda::~CausticMapCuda() = default;

PhotonCounts CausticMapCuda::trace(const kdtree::TriangleKdView& tree, const PhotonScene& scene, uint32_t count,
                                   cudaStream_t stream) {
  Device& d = *d_;
  d.stored = 0;
  PhotonCounts out;
  d.counts.reserve(4, "caustic (cuda): the photon counts");
  MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(d.counts.get(), 0, 4 * sizeof(uint32_t), stream));
  if (count == 0) return out;
  d.paths.reserve(count, "caustic (cuda): the photon paths");
  d.stored_flag.reserve(size_t(count) + 1, "caustic (cuda): the stored photons");
  d.stored_rank.reserve(size_t(count) + 1, "caustic (cuda): the stored photons");
  launch<trace_kernel>({blocks_for(count, kBlock), kBlock, 0, stream}, kdtree::TriangleKdSurface{tree}, scene, count,
                       d.paths.get());
  launch<fate_kernel>({blocks_for(size_t(count) + 1, kBlock), kBlock, 0, stream}, d.paths.get(), count,
                      d.stored_flag.get(), d.counts.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  d.cub.run([&](void* storage, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(storage, bytes, d.stored_flag.get(), d.stored_rank.get(), int(count + 1),
                                         stream);
  });
  uint32_t counts[4];
  MENISCUS_SIM_CUDA_CHECK(cudaMemcpyAsync(counts, d.counts.get(), sizeof counts, cudaMemcpyDeviceToHost, stream));
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  static_assert(uint32_t(PhotonFate::kStored) == 0 && uint32_t(PhotonFate::kDirect) == 1 &&
                uint32_t(PhotonFate::kEscaped) == 2 && uint32_t(PhotonFate::kDropped) == 3);
  out = {counts[0], counts[1], counts[2], counts[3]};
  d.stored = out.stored;
  d.landings.reserve(d.stored, "caustic (cuda): the stored photons");
  launch<gather_kernel>({blocks_for(count, kBlock), kBlock, 0, stream}, d.paths.get(), count, d.stored_flag.get(),
                        d.stored_rank.get(), d.landings.axis[0].get(), d.landings.axis[1].get(),
                        d.landings.axis[2].get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  return out;
}

void CausticMapCuda::store(const glm::vec3* landings, uint32_t count) {
  d_->stored = count;
  d_->landings.upload(landings, count, "caustic (cuda): the stored photons");
}

void CausticMapCuda::estimate(const FloorGrid& grid, float energy, const kdtree::DeviceKnnParams& knn,
                              float traversal_cost, cudaStream_t stream) {
  Device& d = *d_;
  const size_t cells = size_t(grid.width) * grid.height;
  d.irradiance.reserve(cells, "caustic (cuda): the irradiance");
  if (d.stored == 0) {  // a dark floor
    MENISCUS_SIM_CUDA_CHECK(cudaMemsetAsync(d.irradiance.get(), 0, cells * sizeof(float), stream));
    return;
  }
  MENISCUS_SIM_CUDA_CHECK(cudaStreamSynchronize(stream));  // the gather, before the build reads it
  d.tree.build(d.landings.axis[0].get(), d.landings.axis[1].get(), d.landings.axis[2].get(), d.stored, knn.k, 0.0f,
               traversal_cost);
  d.knn.prepare(d.tree.view(), knn, stream);
  d.centre_x.reserve(cells, "caustic (cuda): the cell centres");
  d.centre_y.reserve(cells, "caustic (cuda): the cell centres");
  d.centre_z.reserve(cells, "caustic (cuda): the cell centres");
  d.distances.reserve(cells * knn.k, "caustic (cuda): the neighbours' distances");
  launch<centres_kernel>({blocks_for(cells, kBlock), kBlock, 0, stream}, grid, cell_size(grid), d.centre_x.get(),
                         d.centre_y.get(), d.centre_z.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
  kdtree::DeviceQueries queries;  // row-major cells: neighbours in a row are neighbours on the floor
  queries.x = d.centre_x.get();
  queries.y = d.centre_y.get();
  queries.z = d.centre_z.get();
  queries.count = uint32_t(cells);
  d.knn.search(d.tree.view(), queries, nullptr, d.distances.get(), stream);
  launch<irradiance_kernel>({blocks_for(cells, kBlock), kBlock, 0, stream}, d.distances.get(), uint32_t(cells), knn.k,
                            energy, d.irradiance.get());
  MENISCUS_SIM_CUDA_CHECK(cudaGetLastError());
}

const float* CausticMapCuda::irradiance() const { return d_->irradiance.get(); }

const kdtree::DeviceKdTree& CausticMapCuda::tree() const { return d_->tree; }

std::vector<glm::vec3> CausticMapCuda::download_stored() const { return d_->landings.download(d_->stored); }

}  // namespace meniscus::sim::photon
