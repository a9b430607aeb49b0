#include "sim/sph/sph_cpu.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/core/error.h"
#include "engine/interop/shared_buffer.h"
#include "sim/common/simulation_error.h"
#include "sim/sph/sph_cell_candidates.h"
#include "sim/sph/sph_neighbours.h"
#include "sim/sph/sph_pair_terms_sse.h"
#include "sim/sph/sph_removal.h"

namespace meniscus::sim {

using sph::Vec3;

namespace {

constexpr uint32_t kGrain = 1024;

// Every per-particle loop of the solver: each i is written by one task only.
template <class Body>
void for_each_particle(uint32_t count, Body&& body) {
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, count, kGrain), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t i = r.begin(); i != r.end(); ++i) body(i);
  });
}

template <class T>
void permute(std::vector<T>& values, const std::vector<uint32_t>& order, std::vector<T>& scratch) {
  scratch.resize(values.size());
  for_each_particle(uint32_t(values.size()), [&](uint32_t k) { scratch[k] = values[order[k]]; });
  values.swap(scratch);
}

std::string where(double time) { return sph::where("sph (cpu)", time); }

}  // namespace

SphCpu::SphCpu(const SphParams& params)
    : params_(params), scene_radius_(params.particle_radius), setup_(sph::prepare(params)), emitters_(params) {
  reset();
}

void SphCpu::reset() {
  setup_ = sph::prepare(params_);  // again: the particle radius may have changed
  emitters_ = sph::EmitterSchedule(params_);
  const Vec3* boundary = setup_.boundary.position.data();
  sph::CellSort boundary_sort;  // the samples are already in order: this only finds the cells
  boundary_sort.sort(setup_.grid, setup_.rank, boundary, uint32_t(setup_.boundary.position.size()));
  boundary_cell_begin_ = boundary_sort.cell_begin();
  position_ = setup_.position;
  velocity_ = setup_.velocity;
  agitation_.assign(position_.size(), 0.0f);
  density_.assign(position_.size(), 1.0f);
  id_.resize(position_.size());
  for (uint32_t i = 0; i < id_.size(); ++i) id_[i] = i;
  time_ = 0.0;
  pending_ = 0.0;
  indexed_ = 0;
  stats_ = {};
  planner_.reset();
  outcomes_.clear();
  recorded_ = sph::initial_outcome(velocity_);
}

std::vector<StageControl> SphCpu::controls() {
  return sph::stage_controls(params_, scene_radius_, emitters_);
}

sph::Arrays SphCpu::arrays() {
  sph::Arrays a;
  a.count = uint32_t(position_.size());
  a.position = position_.data();
  a.velocity = velocity_.data();
  a.acceleration = acceleration_.data();
  a.normal = normal_.data();
  a.density = density_.data();
  a.factor = factor_.data();
  a.kappa = kappa_.data();
  a.error = error_.data();
  a.neighbour_begin = neighbour_begin_.data();
  a.neighbours = neighbours_.data();
  a.neighbour_gradient = neighbour_gradient_.data();
  a.boundary_begin = boundary_begin_.data();
  a.boundary_neighbours = boundary_neighbours_.data();
  a.boundary_gradient = boundary_gradient_.data();
  a.boundary_position = setup_.boundary.position.data();
  a.boundary_volume = setup_.boundary.volume.data();
  return a;
}

void SphCpu::step(double dt) {
  stats_.substeps = 0;
  sph::refresh_constants(params_, setup_.constants);
  if (outcomes_.size() >= size_t(sph::kPlanLag)) {
    recorded_ = outcomes_.front();
    outcomes_.pop_front();
  }
  const sph::FramePlan plan = planner_.plan(params_, dt, time_, pending_, recorded_, "sph (cpu)");
  density_most_ = divergence_most_ = -1;
  for (const float h : plan.substeps) substep(h, plan);
  outcomes_.push_back({time_, max_speed(), density_most_, divergence_most_});
}

void SphCpu::substep(float dt, const sph::FramePlan& plan) {
  const uint32_t n = uint32_t(position_.size());
  if (n > 0) {
    sort_particles();
    find_neighbours_and_densities();
    previous_velocity_ = velocity_;
    if (params_.divergence_solve) {
      stats_.divergence_iterations =
          solve(sph::predict_divergence, params_.divergence_tolerance, 1, plan.divergence_budget, dt);
      divergence_most_ = std::max(divergence_most_, stats_.divergence_iterations);
    }
    apply_non_pressure_forces(dt);
    stats_.density_iterations = solve(sph::predict_density, params_.density_tolerance, 2, plan.density_budget, dt);
    density_most_ = std::max(density_most_, stats_.density_iterations);
    stats_.density_error = float(mean_error());
    integrate(dt);
  }
  time_ += dt;
  emit_and_remove(dt);
  stats_.substeps += 1;
  stats_.last_dt = dt;
}

void SphCpu::sort_particles() {
  fluid_sort_.sort(setup_.grid, setup_.rank, position_.data(), uint32_t(position_.size()));
  indexed_ = uint32_t(position_.size());
  const std::vector<uint32_t>& order = fluid_sort_.order();
  std::vector<Vec3> vec_scratch;
  std::vector<float> float_scratch;
  std::vector<uint32_t> id_scratch;
  permute(position_, order, vec_scratch);
  permute(velocity_, order, vec_scratch);
  permute(agitation_, order, float_scratch);
  permute(id_, order, id_scratch);
  const size_t n = position_.size();
  for (auto* v : {&acceleration_, &normal_, &previous_velocity_}) v->resize(n);
  permute(density_, order, float_scratch);  // published until recomputed
  for (auto* v : {&factor_, &kappa_, &error_}) v->resize(n);
}

// One search pass into per-chunk lists (fixed chunks, so the result does not depend on the
// schedule), then a copy to flat arrays at scanned offsets, with each pair's kernel gradient,
// and each particle's density and DFSPH factor while its pairs are still in cache.
void SphCpu::find_neighbours_and_densities() {
  const uint32_t n = uint32_t(position_.size());
  const sph::NeighbourQuery query{setup_.grid,
                                  setup_.rank.data(),
                                  fluid_sort_.cell_begin().data(),
                                  position_.data(),
                                  boundary_cell_begin_.data(),
                                  setup_.boundary.position.data(),
                                  params_.support() * params_.support()};
  const uint32_t chunks = (n + kGrain - 1) / kGrain;
  fluid_chunks_.resize(chunks);
  boundary_chunks_.resize(chunks);
  neighbour_begin_.assign(size_t(n) + 1, 0u);
  boundary_begin_.assign(size_t(n) + 1, 0u);
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, chunks, 1), [&](const tbb::blocked_range<uint32_t>& r) {
    sph::CellCandidates fluid_near(query.grid, query.rank, query.fluid_cells, query.fluid);
    sph::CellCandidates solid_near(query.grid, query.rank, query.boundary_cells, query.boundary);
    for (uint32_t chunk = r.begin(); chunk != r.end(); ++chunk) {
      std::vector<uint32_t>& fluid = fluid_chunks_[chunk];
      std::vector<uint32_t>& solid = boundary_chunks_[chunk];
      fluid.clear();
      solid.clear();
      for (uint32_t i = chunk * kGrain; i < std::min(n, (chunk + 1) * kGrain); ++i) {
        const size_t fluid_before = fluid.size(), solid_before = solid.size();
        // for_each_neighbour's lists, the candidates gathered once per cell
        const sph::Vec3 x = position_[i];
        fluid_near.gather(x);
        fluid_near.within(x, query.support_squared, i, fluid);
        solid_near.gather(x);
        solid_near.within(x, query.support_squared, UINT32_MAX, solid);
        neighbour_begin_[i + 1] = uint32_t(fluid.size() - fluid_before);
        boundary_begin_[i + 1] = uint32_t(solid.size() - solid_before);
      }
    }
  });
  for (uint32_t i = 0; i < n; ++i) {
    if (neighbour_begin_[i + 1] > sph::kMaxNeighbours)
      throw SimulationError(where(time_) + "particle " + std::to_string(id_[i]) + " has " +
                            std::to_string(neighbour_begin_[i + 1]) + " neighbours: the fluid collapsed (step too large?)");
    neighbour_begin_[i + 1] += neighbour_begin_[i];
    boundary_begin_[i + 1] += boundary_begin_[i];
  }
  neighbours_.resize(neighbour_begin_[n]);
  neighbour_gradient_.resize(neighbour_begin_[n]);
  boundary_neighbours_.resize(boundary_begin_[n]);
  boundary_gradient_.resize(boundary_begin_[n]);
  const sph::Constants& c = setup_.constants;
  const sph::Arrays a = arrays();
  tbb::parallel_for(tbb::blocked_range<uint32_t>(0, chunks, 1), [&](const tbb::blocked_range<uint32_t>& r) {
    for (uint32_t chunk = r.begin(); chunk != r.end(); ++chunk) {
      const uint32_t first = chunk * kGrain, end = std::min(n, (chunk + 1) * kGrain);
      std::copy(fluid_chunks_[chunk].begin(), fluid_chunks_[chunk].end(), neighbours_.begin() + neighbour_begin_[first]);
      std::copy(boundary_chunks_[chunk].begin(), boundary_chunks_[chunk].end(),
                boundary_neighbours_.begin() + boundary_begin_[first]);
      for (uint32_t i = first; i < end; ++i)
        sph::compute_pairs_density_and_factor_sse(c, a, i, neighbour_gradient_.data(), boundary_gradient_.data());
    }
  });
}

// DFSPH's solver loop (Bender & Koschier 2017, Algorithms 2 and 3): predict, then correct the
// velocities until the mean error is below tolerance, for at most `budget` iterations (the
// frame's plan, at most max_iterations).
int SphCpu::solve(void (*predict)(const sph::Constants&, const sph::Arrays&, uint32_t, float), float tolerance,
                  int min_iterations, int budget, float dt) {
  const sph::Constants& c = setup_.constants;
  const sph::Arrays a = arrays();
  const uint32_t n = a.count;
  for_each_particle(n, [&](uint32_t i) { predict(c, a, i, dt); });
  int iterations = 0;
  for (;;) {
    const bool converged = !(iterations < min_iterations || mean_error() > tolerance);
    if (converged || iterations >= budget) {
      if (!converged) ++stats_.unconverged;
      return iterations;
    }
    // Velocity changes read only positions and kappas, so updating v in place is safe.
    for_each_particle(n, [&](uint32_t i) { velocity_[i] += sph::pressure_velocity_change(a, i, dt); });
    for_each_particle(n, [&](uint32_t i) { predict(c, a, i, dt); });
    ++iterations;
  }
}

void SphCpu::apply_non_pressure_forces(float dt) {
  const sph::Constants& c = setup_.constants;
  const sph::Arrays a = arrays();
  const uint32_t n = a.count;
  if (c.surface_tension > 0.0f) for_each_particle(n, [&](uint32_t i) { sph::compute_normal(c, a, i); });
  for_each_particle(n, [&](uint32_t i) { acceleration_[i] = sph::non_pressure_acceleration(c, a, i); });
  for_each_particle(n, [&](uint32_t i) { velocity_[i] += dt * acceleration_[i]; });
}

void SphCpu::integrate(float dt) {
  const uint32_t n = uint32_t(position_.size());
  const SphBox& box = params_.domain;
  // Boundary particles push compressed fluid away from the walls, but a particle below rest
  // density feels no pressure (DFSPH only corrects compression) and can drift through the
  // sample layer. The domain's walls are therefore also a kinematic collision at the first
  // sample layer (half a spacing outside the domain, where the bottom fluid layer settles into
  // the samples' hollows): the centre is held there and the outward velocity removed. Contacts
  // are counted: the boundary's quality is how rarely it needs this.
  const float wall = params_.particle_radius;
  std::atomic<uint64_t> contacts{0};
  std::atomic<uint32_t> bad{UINT32_MAX};
  for_each_particle(n, [&](uint32_t i) {
    Vec3& x = position_[i];
    Vec3& v = velocity_[i];
    x += dt * v;
    agitation_[i] = sph::length(v - previous_velocity_[i]);
    if (!sph::finite(x) || !sph::finite(v)) {
      uint32_t seen = bad.load();
      while (id_[i] < seen && !bad.compare_exchange_weak(seen, id_[i])) {
      }
      return;
    }
    float* p = &x.x;
    float* u = &v.x;
    bool touched = false;
    for (int axis = 0; axis < 3; ++axis) {
      if (p[axis] < box.min[axis] - wall) p[axis] = box.min[axis] - wall, u[axis] = std::max(u[axis], 0.0f), touched = true;
      if (p[axis] > box.max[axis] + wall) p[axis] = box.max[axis] + wall, u[axis] = std::min(u[axis], 0.0f), touched = true;
    }
    if (touched) contacts.fetch_add(1, std::memory_order_relaxed);
  });
  if (bad.load() != UINT32_MAX)
    throw SimulationError(where(time_) + "particle " + std::to_string(bad.load()) +
                          " became non-finite (NaN or infinite position or velocity)");
  stats_.wall_contacts += contacts.load();
}

// Emission first: the grid of this substep's sort still indexes the particles (they have only
// moved), so a newborn can be checked against them; removal then compacts the arrays.
void SphCpu::emit_and_remove(float dt) {
  std::vector<Vec3> born_x, born_v;
  emitters_.advance(time_ - dt, dt, born_x, born_v);
  const sph::NeighbourQuery query{setup_.grid, setup_.rank.data(), fluid_sort_.cell_begin().data(), position_.data(),
                                  nullptr, nullptr, 0.0f};
  const float clearance = sph::kEmitterClearance * params_.diameter();
  std::vector<size_t> accepted;
  for (size_t k = 0; k < born_x.size(); ++k) {
    if (indexed_ > 0 && sph::occupied(query, born_x[k], clearance * clearance)) {
      ++stats_.blocked;
      continue;
    }
    if (position_.size() + accepted.size() >= setup_.capacity) {
      ++stats_.dropped;
      continue;
    }
    ++stats_.emitted;
    accepted.push_back(k);
  }
  // Appended only now: the query reads position_ in place, and growing it would move it.
  for (const size_t k : accepted) {
    id_.push_back(uint32_t(position_.size()));
    position_.push_back(born_x[k]);
    velocity_.push_back(born_v[k]);
    agitation_.push_back(0.0f);
    density_.push_back(1.0f);
  }
  if (!params_.sinks.empty())
    stats_.removed += sph::remove_in_sinks(params_.sinks, position_, {&velocity_}, {&agitation_, &density_}, id_);
  indexed_ = 0;  // until the next sort
}

float SphCpu::max_speed() const {
  return tbb::parallel_reduce(
      tbb::blocked_range<size_t>(0, velocity_.size(), kGrain), 0.0f,
      [&](const tbb::blocked_range<size_t>& r, float m) {
        for (size_t i = r.begin(); i != r.end(); ++i) m = std::max(m, sph::length(velocity_[i]));
        return m;
      },
      [](float x, float y) { return std::max(x, y); });
}

double SphCpu::mean_error() const {
  if (error_.empty()) return 0.0;
  // A fixed split (simple_partitioner, fixed grain) sums in the same order on every run.
  const double sum = tbb::parallel_deterministic_reduce(
      tbb::blocked_range<size_t>(0, error_.size(), kGrain), 0.0,
      [&](const tbb::blocked_range<size_t>& r, double s) {
        for (size_t i = r.begin(); i != r.end(); ++i) s += error_[i];
        return s;
      },
      [](double x, double y) { return x + y; }, tbb::simple_partitioner());
  return sum / double(error_.size());
}

// Each particle to its id's place, so published buffers keep their order from frame to frame.
void SphCpu::publish(Particle* out) const {
  const float rho0 = params_.rest_density;
  for_each_particle(uint32_t(position_.size()), [&](uint32_t i) {
    const Vec3 x = position_[i], v = velocity_[i];
    out[id_[i]] = Particle{{x.x, x.y, x.z}, density_[i] * rho0, {v.x, v.y, v.z}, agitation_[i]};
  });
}

void SphCpu::write(SharedBuffer& target) {
  if (target.size() < count() * sizeof(Particle)) throw DeviceError("sph: shared buffer too small");
  auto* out = static_cast<Particle*>(target.host_pointer());
  if (!out) throw DeviceError("sph (cpu): shared buffer is not host-visible");
  publish(out);
}

std::vector<Particle> SphCpu::particles() const {
  std::vector<Particle> out(position_.size());
  publish(out.data());
  return out;
}

}  // namespace meniscus::sim
