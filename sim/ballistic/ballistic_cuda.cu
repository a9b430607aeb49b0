#include "sim/ballistic/ballistic_cuda.h"

#include <cuda_runtime.h>

#include <string>

#include "engine/core/context.h"
#include "engine/core/error.h"
#include "sim/common/cuda_launch.cuh"
#include "sim/common/cuda_support.cuh"
#include "engine/interop/cuda_device.h"
#include "engine/interop/shared_buffer.h"
#include "engine/interop/timeline.h"
#include "engine/profile/cuda_event_timer.h"
#include "sim/ballistic/ballistic_math.h"

namespace meniscus::sim {
namespace {

#define BALLISTIC_CUDA_CHECK(call) MENISCUS_SIM_CUDA_CHECK(call)

constexpr int kBlock = 256;

__global__ void initialise(BallisticParams params, ballistic::State* states) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < params.count) states[i] = ballistic::initial(params, i);
}

__global__ void advance(BallisticParams params, ballistic::State* states, int steps, unsigned* bad) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= params.count) return;
  ballistic::State s = states[i];
  for (int k = 0; k < steps; ++k) ballistic::advance(s, params, i, params.fixed_dt);
  if (!ballistic::finite(s)) atomicMin(bad, i);
  states[i] = s;
}

__global__ void publish(uint32_t count, const ballistic::State* states, Particle* out) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = ballistic::publish(states[i]);
}

class BallisticCuda : public ParticleStage {
 public:
  // make_ballistic_cuda has validated `params` and found the CUDA device (now current).
  BallisticCuda(const BallisticParams& params, const Context& context)
      : params_(params), timeline_(context, /*cuda_shared=*/true) {
    try {
      BALLISTIC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
      // Out of memory: a DeviceMemoryError naming the states and what was free.
      states_ = static_cast<ballistic::State*>(
          device_allocate(sizeof(ballistic::State) * params.count, "ballistic (cuda): the particle states"));
      bad_ = static_cast<unsigned*>(device_allocate(sizeof(unsigned), "ballistic (cuda): the blow-up flag"));
      launch<initialise>({blocks(), kBlock, 0, stream_}, params_, states_);
      BALLISTIC_CUDA_CHECK(cudaGetLastError());
    } catch (...) {
      release();
      throw;
    }
  }
  ~BallisticCuda() override { release(); }

  std::string_view name() const override { return "ballistic"; }
  SimBackend backend() const override { return SimBackend::Cuda; }
  size_t count() const override { return params_.count; }

  void step(double dt) override {
    pending_ += dt;
    const int steps = static_cast<int>(pending_ / params_.fixed_dt);
    pending_ -= steps * double(params_.fixed_dt);
    if (steps == 0) return;
    BALLISTIC_CUDA_CHECK(cudaMemsetAsync(bad_, 0xFF, sizeof(unsigned), stream_));  // UINT32_MAX: none bad
    timer_.begin(stream_);
    launch<advance>({blocks(), kBlock, 0, stream_}, params_, states_, steps, bad_);
    BALLISTIC_CUDA_CHECK(cudaGetLastError());
    timer_.end(stream_);
    // The check reads back 4 bytes a frame: cheap, and an exploding particle must not be drawn.
    unsigned bad = UINT32_MAX;
    BALLISTIC_CUDA_CHECK(cudaMemcpyAsync(&bad, bad_, sizeof(unsigned), cudaMemcpyDeviceToHost, stream_));
    BALLISTIC_CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (bad != UINT32_MAX) throw DeviceError("ballistic (cuda): particle " + std::to_string(bad) + " became non-finite");
    last_ms_ = timer_.elapsed_ms();
  }

  std::optional<double> device_ms() const override { return last_ms_; }

  void write(SharedBuffer& target) override {
    if (target.kind() != SharedMemory::Cuda || target.size() < count() * sizeof(Particle))
      throw DeviceError("ballistic (cuda): target is not a CUDA-shared buffer of the right size");
    // "Done reading" from the renderer's last submission, when it took part in the protocol.
    if (reading_ != 0) timeline_.cuda_wait(reading_, stream_);
    reading_ = 0;
    launch<publish>({blocks(), kBlock, 0, stream_}, params_.count, states_, static_cast<Particle*>(target.cuda_pointer()));
    BALLISTIC_CUDA_CHECK(cudaGetLastError());
    // One timeline for both directions: "written" and "done reading" values alternate, and each
    // is signalled only after the one before it has been waited for, so they stay increasing.
    timeline_.cuda_signal(++value_, stream_);
    written_ = value_;
  }

  void order_after_write(void* cuda_stream) const override {
    if (written_ != 0) timeline_.cuda_wait(written_, cuda_stream);
  }

  std::optional<GpuWait> gpu_wait(const SharedBuffer&) const override {
    if (written_ == 0) return std::nullopt;  // nothing written yet
    return GpuWait{timeline_.handle(), written_};
  }

  std::optional<GpuWait> gpu_done_reading(const SharedBuffer&) override {
    if (written_ == 0) return std::nullopt;
    if (reading_ == 0) reading_ = ++value_;  // one "done reading" per write
    return GpuWait{timeline_.handle(), reading_};
  }

 private:
  void release() noexcept {
    // A pending "done reading" wait that the renderer never signals would hang here: asking
    // for gpu_done_reading() is a promise to submit it (see ParticleStage).
    if (stream_) cudaStreamSynchronize(stream_);
    if (states_) cudaFree(states_);
    if (bad_) cudaFree(bad_);
    if (stream_) cudaStreamDestroy(stream_);
    states_ = nullptr;
    bad_ = nullptr;
    stream_ = nullptr;
  }

  unsigned blocks() const { return (params_.count + kBlock - 1) / kBlock; }

  BallisticParams params_;
  TimelineSemaphore timeline_;
  cudaStream_t stream_ = nullptr;
  ballistic::State* states_ = nullptr;
  unsigned* bad_ = nullptr;
  uint64_t value_ = 0;    // the last timeline value handed out
  uint64_t written_ = 0;  // signalled by the last write()
  uint64_t reading_ = 0;  // "done reading" the renderer promised to signal, 0 = none pending
  double pending_ = 0.0;
  profile::CudaEventTimer timer_;
  std::optional<double> last_ms_;
};

}  // namespace

std::unique_ptr<ParticleStage> make_ballistic_cuda(const BallisticParams& params, const Context& context) {
  params.validate();
  std::string why;
  if (!find_cuda_device(context.info(), &why)) throw DeviceError("ballistic (cuda): " + why);
  return std::make_unique<BallisticCuda>(params, context);
}

}  // namespace meniscus::sim
