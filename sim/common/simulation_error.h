#pragma once
// A simulation that can no longer go on: a step produced NaN, a particle escaped, the solver
// diverged. Neither bad input nor a device failure, so its own kind; the message says which
// stage, which particle and when.
#include <stdexcept>

namespace meniscus::sim {

class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace meniscus::sim
