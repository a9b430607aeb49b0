// The CPU sim-stage timer and the CPU stopwatch. (The CUDA one: cuda_stage_timer_tests.cpp.)
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "engine/core/error.h"
#include "engine/profile/cpu_timer.h"
#include "engine/profile/cuda_stage_timer.h"
#include "engine/profile/stage_timer.h"

namespace meniscus::profile {

TEST_CASE("the CPU stopwatch measures a sleep", "[profile][cpu_timer]") {
  CpuTimer timer;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double ms = timer.elapsed_ms();
  CHECK(ms >= 20.0);
  CHECK(ms < 2000.0);
  timer.restart();
  CHECK(timer.elapsed_ms() < ms);
}

TEST_CASE("the CPU stage timer reports stages in begin order, once", "[profile][stage_timer]") {
  CpuStageTimer timer;
  StageTimer& hook = timer;  // used through the interface, as the frame loop does
  CHECK(hook.backend() == "cpu");
  hook.begin("sph.density");
  std::this_thread::sleep_for(std::chrono::milliseconds(15));
  hook.begin("sph.forces");  // overlapping stages are allowed
  hook.end("sph.density");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  hook.end("sph.forces");
  hook.begin("still.open");

  const std::vector<StageSample> samples = hook.collect();
  REQUIRE(samples.size() == 2);
  CHECK(samples[0].name == "sph.density");
  CHECK(samples[0].backend == "cpu");
  CHECK(samples[0].ms >= 15.0);
  CHECK(samples[1].name == "sph.forces");
  CHECK(samples[1].ms >= 5.0);
  CHECK(samples[1].ms < samples[0].ms + 5.0 + 1000.0);

  // Collected samples are gone; the open stage is reported after its end.
  hook.end("still.open");
  const std::vector<StageSample> later = hook.collect();
  REQUIRE(later.size() == 1);
  CHECK(later[0].name == "still.open");
  CHECK(hook.collect().empty());
}

TEST_CASE("the stage timer refuses unbalanced calls", "[profile][stage_timer]") {
  CpuStageTimer timer;
  CHECK_THROWS_AS(timer.end("never.begun"), std::logic_error);
  timer.begin("a");
  CHECK_THROWS_AS(timer.begin("a"), std::logic_error);
  timer.end("a");
  CHECK_THROWS_AS(timer.end("a"), std::logic_error);
  timer.begin("a");  // again after its end: a second sample of the same stage
  timer.end("a");
  CHECK(timer.collect().size() == 2);
}

#ifndef MENISCUS_HAS_CUDA
TEST_CASE("without CUDA the CUDA stage timer says so", "[profile][stage_timer]") {
  CHECK_THROWS_AS(CudaStageTimer(nullptr), DeviceError);
  CHECK_THROWS_WITH(CudaStageTimer(nullptr), Catch::Matchers::Contains("without CUDA"));
}
#endif

}  // namespace meniscus::profile
