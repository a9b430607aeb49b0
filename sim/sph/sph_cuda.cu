#include "sim/sph/sph_cuda.h"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "engine/profile/cuda_event_timer.h"
#include "sim/common/simulation_error.h"
#include "sim/sph/sph_cuda_kernels.cuh"
#include "sim/sph/sph_removal.h"
#include "sim/sph/sph_setup.h"

namespace meniscus::sim {
namespace {

using sph::Vec3;
namespace k = sph::cuda;

#define SPH_CUDA_CHECK(call) MENISCUS_SIM_CUDA_CHECK(call)


class SphCuda : public SphStage {
 public:
  // `context` null: headless (tests, benchmark), publishing to host-visible buffers only.
  SphCuda(const SphParams& params, const Context* context)
      : params_(params), scene_radius_(params.particle_radius), setup_(sph::prepare(params)), emitters_(params) {
    if (context) timeline_ = std::make_unique<TimelineSemaphore>(*context, /*cuda_shared=*/true);
    SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    reset();
  }

  ~SphCuda() override {
    // A pending "done reading" wait that the renderer never signals would hang here: asking
    // for gpu_done_reading() is a promise to submit it (see ParticleStage).
    if (stream_) {
      cudaStreamSynchronize(stream_);
      cudaStreamDestroy(stream_);
    }
  }

  SimBackend backend() const override { return SimBackend::Cuda; }
  size_t count() const override { return count_; }
  size_t capacity() const override { return setup_.capacity; }
  double time() const override { return time_; }
  const SphStats& stats() const override { return stats_; }

  // Also the constructor's second half: sizes every array for the (possibly new) capacity and
  // grid, and uploads the static boundary.
  void reset() override {
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    setup_ = sph::prepare(params_);
    emitters_ = sph::EmitterSchedule(params_);
    const size_t cap = std::max<size_t>(1, setup_.capacity), cells = setup_.grid.cells();
    for (auto* a : {&position_, &velocity_, &previous_velocity_, &acceleration_, &normal_, &vec_scratch_}) a->reserve(cap);
    for (auto* a : {&density_, &factor_, &kappa_, &error_, &agitation_, &float_scratch_}) a->reserve(cap);
    for (auto* a : {&id_, &key_, &order_, &uint_scratch_}) a->reserve(cap);
    neighbour_begin_.reserve(cap + 1);
    boundary_begin_.reserve(cap + 1);
    fluid_cells_.reserve(cells + 1);
    cursor_.reserve(cells);
    rank_.reserve(cells);
    boundary_cells_.reserve(cells + 1);
    const size_t samples = std::max<size_t>(1, setup_.boundary.position.size());
    boundary_position_.reserve(samples);
    boundary_volume_.reserve(samples);
    counters_.reserve(4);
    reduction_.reserve(1);
    contacts_.reserve(1);
    upload(rank_.get(), setup_.rank.data(), cells);
    upload(boundary_position_.get(), setup_.boundary.position.data(), setup_.boundary.position.size());
    upload(boundary_volume_.get(), setup_.boundary.volume.data(), setup_.boundary.volume.size());
    sort_by_cells(boundary_position_.get(), uint32_t(setup_.boundary.position.size()), boundary_cells_);

    count_ = 0;
    append(setup_.position, setup_.velocity);
    time_ = 0.0;
    pending_ = 0.0;
    indexed_ = false;
    stats_ = {};
  }

  std::vector<StageControl> controls() override {
    return sph::stage_controls(params_, scene_radius_, emitters_);
  }

  void step(double dt) override {
    stats_.substeps = 0;
    sph::refresh_constants(params_, setup_.constants);
    timer_.begin(stream_);
    sph::advance_frame(
        params_, dt, pending_, [&] { return max_speed(); }, [&](float h) { substep(h); }, [&] { return where(); });
    timer_.end(stream_);
    last_ms_ = timer_.elapsed_ms();
  }

  std::optional<double> device_ms() const override { return last_ms_; }

  void write(SharedBuffer& target) override {
    if (target.size() < count_ * sizeof(Particle)) throw DeviceError("sph (cuda): shared buffer too small");
    if (target.kind() == SharedMemory::Host) {  // headless, or a renderer without CUDA interop
      if (!target.host_pointer()) throw DeviceError("sph (cuda): shared buffer is neither CUDA-shared nor host-visible");
      const std::vector<Particle> all = particles();
      std::copy(all.begin(), all.end(), static_cast<Particle*>(target.host_pointer()));
      return;
    }
    if (!timeline_) throw DeviceError("sph (cuda): a CUDA-shared target needs the stage made with a Vulkan context");
    if (reading_ != 0) timeline_->cuda_wait(reading_, stream_);
    reading_ = 0;
    publish(static_cast<Particle*>(target.cuda_pointer()));
    // "written" and "done reading" alternate on one timeline, each signalled only after the
    // one before it was waited for, so values stay increasing.
    timeline_->cuda_signal(++value_, stream_);
    written_ = value_;
  }

  std::optional<GpuWait> gpu_wait(const SharedBuffer& target) const override {
    if (written_ == 0 || target.kind() != SharedMemory::Cuda) return std::nullopt;
    return GpuWait{timeline_->handle(), written_};
  }

  std::optional<GpuWait> gpu_done_reading(const SharedBuffer& target) override {
    if (written_ == 0 || target.kind() != SharedMemory::Cuda) return std::nullopt;
    if (reading_ == 0) reading_ = ++value_;
    return GpuWait{timeline_->handle(), reading_};
  }

  std::vector<Particle> particles() const override {
    DeviceArray<Particle> out;
    out.reserve(std::max<uint32_t>(1, count_));
    const_cast<SphCuda*>(this)->publish(out.get());
    std::vector<Particle> host(count_);
    SPH_CUDA_CHECK(cudaMemcpyAsync(host.data(), out.get(), sizeof(Particle) * count_, cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

 private:
  template <class T>
  void upload(T* device, const T* host, size_t n) {
    if (n) SPH_CUDA_CHECK(cudaMemcpyAsync(device, host, sizeof(T) * n, cudaMemcpyHostToDevice, stream_));
  }
  template <class T>
  std::vector<T> download(const T* device, size_t n) const {
    std::vector<T> host(n);
    if (n) SPH_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, sizeof(T) * n, cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return host;
  }

  std::string where() const { return "sph (cuda) at t = " + std::to_string(time_) + " s: "; }

  void publish(Particle* out) {
    if (count_ == 0) return;
    launch<k::publish>({k::blocks(count_), k::kBlock, 0, stream_}, position_.get(), velocity_.get(), density_.get(),
                       agitation_.get(), id_.get(), count_, params_.rest_density, out);
    SPH_CUDA_CHECK(cudaGetLastError());
  }

  // CUB's temporary storage, grown on demand (CUB allocates nothing itself).
  void* temp(size_t bytes) {
    temp_.reserve(std::max<size_t>(bytes, 1));
    return temp_.get();
  }

  // Inclusive scan in place over n + 1 counters whose [0] is 0: offsets.
  void scan_offsets(uint32_t* counts, uint32_t n) {
    size_t bytes = 0;
    SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, counts, n + 1, stream_));
    void* storage = temp(bytes);
    SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(storage, bytes, counts, counts, n + 1, stream_));
  }

  // Counting sort by Z-order cell; order_ = input index of each place, cells = offsets by rank.
  void sort_by_cells(const Vec3* x, uint32_t n, DeviceArray<uint32_t>& cells) {
    const uint32_t cell_count = setup_.grid.cells();
    SPH_CUDA_CHECK(cudaMemsetAsync(cells.get(), 0, sizeof(uint32_t) * (cell_count + 1), stream_));
    if (n == 0) return;
    key_.reserve(n);
    order_.reserve(n);
    launch<k::cell_keys>({k::blocks(n), k::kBlock, 0, stream_}, setup_.grid, rank_.get(), x, n, key_.get(), cells.get());
    scan_offsets(cells.get(), cell_count);
    SPH_CUDA_CHECK(cudaMemcpyAsync(cursor_.get(), cells.get(), sizeof(uint32_t) * cell_count, cudaMemcpyDeviceToDevice, stream_));
    launch<k::scatter>({k::blocks(n), k::kBlock, 0, stream_}, key_.get(), n, cursor_.get(), order_.get());
    launch<k::order_cells>({k::blocks(cell_count), k::kBlock, 0, stream_}, cells.get(), cell_count, order_.get());
    SPH_CUDA_CHECK(cudaGetLastError());
  }

  template <class T>
  void permute(DeviceArray<T>& values, DeviceArray<T>& scratch) {
    launch<k::gather<T>>({k::blocks(count_), k::kBlock, 0, stream_}, values.get(), order_.get(), count_, scratch.get());
    values.swap(scratch);
  }

  void sort_particles() {
    sort_by_cells(position_.get(), count_, fluid_cells_);
    indexed_ = true;
    permute(position_, vec_scratch_);
    permute(velocity_, vec_scratch_);
    permute(agitation_, float_scratch_);
    permute(density_, float_scratch_);
    permute(id_, uint_scratch_);
    SPH_CUDA_CHECK(cudaGetLastError());
  }

  void find_neighbours() {
    const sph::NeighbourQuery query{setup_.grid,       rank_.get(),           fluid_cells_.get(),
                                    position_.get(),   boundary_cells_.get(), boundary_position_.get(),
                                    params_.support() * params_.support()};
    SPH_CUDA_CHECK(cudaMemsetAsync(neighbour_begin_.get(), 0, sizeof(uint32_t), stream_));
    SPH_CUDA_CHECK(cudaMemsetAsync(boundary_begin_.get(), 0, sizeof(uint32_t), stream_));
    SPH_CUDA_CHECK(cudaMemsetAsync(counters_.get(), 0, sizeof(uint32_t), stream_));
    launch<k::count_neighbours>({k::blocks(count_), k::kBlock, 0, stream_}, query, count_, neighbour_begin_.get(),
                                boundary_begin_.get(), counters_.get());
    SPH_CUDA_CHECK(cudaGetLastError());
    scan_offsets(neighbour_begin_.get(), count_);
    scan_offsets(boundary_begin_.get(), count_);
    // One small read-back a step: the lists' sizes, and whether the fluid collapsed.
    uint32_t most = 0, fluid_total = 0, boundary_total = 0;
    SPH_CUDA_CHECK(cudaMemcpyAsync(&most, counters_.get(), sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaMemcpyAsync(&fluid_total, neighbour_begin_.get() + count_, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaMemcpyAsync(&boundary_total, boundary_begin_.get() + count_, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (most > sph::kMaxNeighbours)
      throw SimulationError(where() + "a particle has " + std::to_string(most) +
                            " neighbours: the fluid collapsed (step too large?)");
    neighbours_.reserve(std::max<uint32_t>(1, fluid_total));
    neighbour_gradient_.reserve(std::max<uint32_t>(1, fluid_total));
    boundary_neighbours_.reserve(std::max<uint32_t>(1, boundary_total));
    boundary_gradient_.reserve(std::max<uint32_t>(1, boundary_total));
    launch<k::fill_neighbours>({k::blocks(count_), k::kBlock, 0, stream_},
        query, setup_.constants, boundary_volume_.get(), count_, neighbour_begin_.get(), neighbours_.get(),
        neighbour_gradient_.get(), boundary_begin_.get(), boundary_neighbours_.get(), boundary_gradient_.get());
    SPH_CUDA_CHECK(cudaGetLastError());
  }

  sph::Arrays arrays() {
    sph::Arrays a;
    a.count = count_;
    a.position = position_.get();
    a.velocity = velocity_.get();
    a.acceleration = acceleration_.get();
    a.normal = normal_.get();
    a.density = density_.get();
    a.factor = factor_.get();
    a.kappa = kappa_.get();
    a.error = error_.get();
    a.neighbour_begin = neighbour_begin_.get();
    a.neighbours = neighbours_.get();
    a.neighbour_gradient = neighbour_gradient_.get();
    a.boundary_begin = boundary_begin_.get();
    a.boundary_neighbours = boundary_neighbours_.get();
    a.boundary_gradient = boundary_gradient_.get();
    a.boundary_position = boundary_position_.get();
    a.boundary_volume = boundary_volume_.get();
    return a;
  }

  double mean_error() {
    size_t bytes = 0;
    SPH_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, error_.get(), reduction_.get(), count_, stream_));
    void* storage = temp(bytes);
    SPH_CUDA_CHECK(cub::DeviceReduce::Sum(storage, bytes, error_.get(), reduction_.get(), count_, stream_));
    float sum = 0.0f;
    SPH_CUDA_CHECK(cudaMemcpyAsync(&sum, reduction_.get(), sizeof(float), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return double(sum) / double(count_);
  }

  float max_speed() {
    if (count_ == 0) return 0.0f;
    launch<k::speeds>({k::blocks(count_), k::kBlock, 0, stream_}, velocity_.get(), count_, error_.get());
    size_t bytes = 0;
    SPH_CUDA_CHECK(cub::DeviceReduce::Max(nullptr, bytes, error_.get(), reduction_.get(), count_, stream_));
    void* storage = temp(bytes);
    SPH_CUDA_CHECK(cub::DeviceReduce::Max(storage, bytes, error_.get(), reduction_.get(), count_, stream_));
    float speed = 0.0f;
    SPH_CUDA_CHECK(cudaMemcpyAsync(&speed, reduction_.get(), sizeof(float), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return speed;
  }

  // DFSPH's solver loop, as SphCpu::solve.
  template <class Predict>
  int solve(Predict predict, float tolerance, int min_iterations, float dt) {
    const sph::Arrays a = arrays();
    const sph::Constants& c = setup_.constants;
    predict(c, a, dt);
    int iterations = 0;
    while ((iterations < min_iterations || mean_error() > tolerance) && iterations < params_.max_iterations) {
      launch<k::pressure_update>({k::blocks(count_), k::kBlock, 0, stream_}, a, dt);
      predict(c, a, dt);
      ++iterations;
    }
    SPH_CUDA_CHECK(cudaGetLastError());
    return iterations;
  }

  void substep(float dt) {
    if (count_ > 0) {
      sort_particles();
      find_neighbours();
      const sph::Constants& c = setup_.constants;
      const sph::Arrays a = arrays();
      const unsigned grid = k::blocks(count_);
      launch<k::density_and_factor>({grid, k::kBlock, 0, stream_}, c, a);
      SPH_CUDA_CHECK(cudaMemcpyAsync(previous_velocity_.get(), velocity_.get(), sizeof(Vec3) * count_,
                                     cudaMemcpyDeviceToDevice, stream_));
      if (params_.divergence_solve)
        stats_.divergence_iterations = solve(
            [&](const sph::Constants& cc, const sph::Arrays& aa, float h) {
              launch<k::predict_divergence_kernel>({grid, k::kBlock, 0, stream_}, cc, aa, h);
            },
            params_.divergence_tolerance, 1, dt);
      if (c.surface_tension > 0.0f) launch<k::normals>({grid, k::kBlock, 0, stream_}, c, a);
      launch<k::non_pressure>({grid, k::kBlock, 0, stream_}, c, a);
      launch<k::accelerate>({grid, k::kBlock, 0, stream_}, a, dt);
      stats_.density_iterations = solve(
          [&](const sph::Constants& cc, const sph::Arrays& aa, float h) {
            launch<k::predict_density_kernel>({grid, k::kBlock, 0, stream_}, cc, aa, h);
          },
          params_.density_tolerance, 2, dt);
      stats_.density_error = float(mean_error());
      integrate(dt);
    }
    time_ += dt;
    emit_and_remove(dt);
    stats_.substeps += 1;
    stats_.last_dt = dt;
  }

  void integrate(float dt) {
    k::Walls walls;
    const float r = params_.particle_radius;  // the first sample layer, as on the CPU
    for (int a = 0; a < 3; ++a) walls.min[a] = params_.domain.min[a] - r, walls.max[a] = params_.domain.max[a] + r;
    SPH_CUDA_CHECK(cudaMemsetAsync(contacts_.get(), 0, sizeof(unsigned long long), stream_));
    SPH_CUDA_CHECK(cudaMemsetAsync(counters_.get() + 1, 0xFF, sizeof(uint32_t), stream_));
    launch<k::integrate>({k::blocks(count_), k::kBlock, 0, stream_}, arrays(), previous_velocity_.get(), agitation_.get(),
                         id_.get(), dt, walls, contacts_.get(), counters_.get() + 1);
    SPH_CUDA_CHECK(cudaGetLastError());
    unsigned long long contacts = 0;
    uint32_t bad = 0;
    SPH_CUDA_CHECK(cudaMemcpyAsync(&contacts, contacts_.get(), sizeof(contacts), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaMemcpyAsync(&bad, counters_.get() + 1, sizeof(bad), cudaMemcpyDeviceToHost, stream_));
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (bad != UINT32_MAX)
      throw SimulationError(where() + "particle " + std::to_string(bad) + " became non-finite (NaN or infinite position or velocity)");
    stats_.wall_contacts += contacts;
  }

  // Emission first, as on the CPU: this substep's grid still indexes the particles.
  void emit_and_remove(float dt) {
    std::vector<Vec3> born_x, born_v;
    emitters_.advance(time_ - dt, dt, born_x, born_v);
    if (!born_x.empty()) emit(born_x, born_v);
    indexed_ = false;
    if (params_.sinks.empty() || count_ == 0) return;
    // Sinks are rare events at a basin's drain; they compact on the host with the CPU
    // backend's code (a device compaction would be faster for huge counts).
    std::vector<Vec3> x = download(position_.get(), count_), v = download(velocity_.get(), count_);
    std::vector<float> agitation = download(agitation_.get(), count_), density = download(density_.get(), count_);
    std::vector<uint32_t> id = download(id_.get(), count_);
    const uint64_t removed = sph::remove_in_sinks(params_.sinks, x, {&v}, {&agitation, &density}, id);
    if (!removed) return;
    count_ = uint32_t(x.size());
    upload(position_.get(), x.data(), count_);
    upload(velocity_.get(), v.data(), count_);
    upload(agitation_.get(), agitation.data(), count_);
    upload(density_.get(), density.data(), count_);
    upload(id_.get(), id.data(), count_);
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host vectors die here
    stats_.removed += removed;
  }

  void emit(const std::vector<Vec3>& born_x, const std::vector<Vec3>& born_v) {
    const uint32_t n = uint32_t(born_x.size());
    std::vector<uint8_t> clear(n, 1);
    if (indexed_) {
      const sph::NeighbourQuery query{setup_.grid, rank_.get(), fluid_cells_.get(), position_.get(), nullptr, nullptr, 0.0f};
      const float clearance = sph::kEmitterClearance * params_.diameter();
      candidates_.reserve(n);
      clear_flags_.reserve(n);
      upload(candidates_.get(), born_x.data(), n);
      launch<k::clear_of_fluid>({k::blocks(n), k::kBlock, 0, stream_}, query, candidates_.get(), n, clearance * clearance,
                                clear_flags_.get());
      SPH_CUDA_CHECK(cudaGetLastError());
      clear = download(clear_flags_.get(), n);
    }
    std::vector<Vec3> x, v;
    for (uint32_t k2 = 0; k2 < n; ++k2) {
      if (!clear[k2]) {
        ++stats_.blocked;
      } else if (count_ + x.size() >= setup_.capacity) {
        ++stats_.dropped;
      } else {
        x.push_back(born_x[k2]);
        v.push_back(born_v[k2]);
      }
    }
    stats_.emitted += x.size();
    append(x, v);
  }

  // New particles after the count_ present: at rest density, calm, with the next ids.
  void append(const std::vector<Vec3>& x, const std::vector<Vec3>& v) {
    const uint32_t n = uint32_t(x.size());
    if (n == 0) return;
    std::vector<float> zeros(n, 0.0f), ones(n, 1.0f);
    std::vector<uint32_t> ids(n);
    for (uint32_t k = 0; k < n; ++k) ids[k] = count_ + k;
    upload(position_.get() + count_, x.data(), n);
    upload(velocity_.get() + count_, v.data(), n);
    upload(agitation_.get() + count_, zeros.data(), n);
    upload(density_.get() + count_, ones.data(), n);
    upload(id_.get() + count_, ids.data(), n);
    SPH_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host vectors die here
    count_ += n;
  }

  SphParams params_;
  float scene_radius_;
  sph::Setup setup_;
  sph::EmitterSchedule emitters_;
  std::unique_ptr<TimelineSemaphore> timeline_;
  cudaStream_t stream_ = nullptr;
  uint32_t count_ = 0;

  DeviceArray<Vec3> position_, velocity_, previous_velocity_, acceleration_, normal_, vec_scratch_;
  DeviceArray<float> density_, factor_, kappa_, error_, agitation_, float_scratch_;
  DeviceArray<uint32_t> id_, key_, order_, uint_scratch_;
  DeviceArray<uint32_t> fluid_cells_, cursor_, rank_, boundary_cells_;
  DeviceArray<uint32_t> neighbour_begin_, neighbours_, boundary_begin_, boundary_neighbours_;
  DeviceArray<Vec3> neighbour_gradient_, boundary_gradient_;
  DeviceArray<Vec3> boundary_position_;
  DeviceArray<float> boundary_volume_;
  DeviceArray<uint32_t> counters_;  // [0] most neighbours, [1] lowest non-finite id
  DeviceArray<float> reduction_;
  DeviceArray<unsigned long long> contacts_;
  DeviceArray<unsigned char> temp_;
  DeviceArray<Vec3> candidates_;
  DeviceArray<uint8_t> clear_flags_;
  bool indexed_ = false;  // the grid of the last sort still indexes the particles

  uint64_t value_ = 0, written_ = 0, reading_ = 0;
  double time_ = 0.0, pending_ = 0.0;
  SphStats stats_;
  profile::CudaEventTimer timer_;
  std::optional<double> last_ms_;
};

}  // namespace

std::unique_ptr<SphStage> make_sph_cuda(const SphParams& params, const Context& context) {
  params.validate();
  std::string why;
  const std::optional<int> device = find_cuda_device(context.info(), &why);
  if (!device) throw DeviceError("sph (cuda): " + why);
  SPH_CUDA_CHECK(cudaSetDevice(*device));
  return std::make_unique<SphCuda>(params, &context);
}

std::unique_ptr<SphStage> make_sph_cuda_headless(const SphParams& params) {
  params.validate();
  std::string why;
  if (!cuda_device_answers(&why)) throw DeviceError("sph (cuda): " + why);
  SPH_CUDA_CHECK(cudaSetDevice(0));
  return std::make_unique<SphCuda>(params, nullptr);
}

}  // namespace meniscus::sim
