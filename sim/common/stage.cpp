#include "sim/common/stage.h"

#include "sim/common/particle_stage.h"

namespace meniscus::sim {

const char* stage_output_name(StageOutput kind) {
  switch (kind) {
    case StageOutput::Particles: return "particles";
    case StageOutput::LevelSet: return "level set";
    case StageOutput::TracedImage: return "traced image";
  }
  return "?";
}

std::string ParticleStage::summary() const {
  return std::to_string(count()) + " of " + std::to_string(capacity()) + " particles";
}

}  // namespace meniscus::sim
