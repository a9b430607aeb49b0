#pragma once
// Removal of particles that entered a sink, keeping ids dense: a removed particle's id goes to
// a survivor whose id would now be out of range, so published buffers stay 0..count-1 and
// every other particle keeps its place (its noise, its colour) from frame to frame.
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "sim/sph/sph_kernel.h"
#include "sim/sph/sph_params.h"

namespace meniscus::sim::sph {

// Removes, in place and keeping order, every particle inside a sink from `position` and the
// parallel arrays; returns how many. `id` holds each particle's dense id.
uint64_t remove_in_sinks(const std::vector<SphSink>& sinks, std::vector<Vec3>& position,
                         std::initializer_list<std::vector<Vec3>*> vectors, std::initializer_list<std::vector<float>*> scalars,
                         std::vector<uint32_t>& id);

// The id bookkeeping alone: ids of the survivors (in order) and of the removed; returns the
// survivors' new ids. The CUDA backend computes the same mapping on the device, by id rank
// (sph_cuda_sources.cu): the k-th removed id below the survivors' count goes to the survivor with
// the k-th id at or above it.
std::vector<uint32_t> densify_ids(const std::vector<uint32_t>& survivor_ids, std::vector<uint32_t> removed_ids);

}  // namespace meniscus::sim::sph
