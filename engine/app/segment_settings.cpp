#include "engine/app/segment_settings.h"

#include "engine/app/data_path.h"
#include "engine/core/input_limits.h"

namespace meniscus {

sim::levelset::SegmentationStageParams read_segment_settings(const ParamTable& t, const Scene& /*scene*/) {
  sim::levelset::SegmentationStageParams s;
  s.volume = resolve_data_path(t, "volume", t.required_string("volume"));
  auto& p = s.segmentation;
  p.lower = float(t.required_number("lower"));
  p.upper = float(t.required_number("upper"));
  if (!(p.lower < p.upper)) t.fail("upper", "must be above lower (" + limits::number_text(p.lower) + ")");
  p.curvature = float(t.number("curvature", p.curvature, 0.0, 0.95));
  p.term = t.string("data_term", "linear", {"linear", "tanh"}) == "tanh" ? sim::levelset::DataTerm::kTanh
                                                                       : sim::levelset::DataTerm::kLinear;
  s.steps_per_frame = int(t.integer("steps_per_frame", s.steps_per_frame, 1, 1000));
  s.rms = t.number("rms", s.rms, 0.0, 10.0);
  // [[stage.seed]]: at = [i, j, k] (sample indices), radius (samples, default 2).
  for (const ParamTable& seed : t.array_of_tables("seed")) {
    if (!seed.has("at")) seed.fail("at", "a seed needs its sample, at = [i, j, k]");
    const glm::vec3 at = seed.vec3("at", glm::vec3(0.0f));
    s.seeds.emplace_back(at, float(seed.number("radius", 2.0, 0.5, 1e4)));
    seed.finish();
  }
  if (s.seeds.empty()) t.fail("seed", "a segment stage needs at least one [[stage.seed]] (at = [i, j, k])");
  t.finish();
  return s;
}

}  // namespace meniscus
