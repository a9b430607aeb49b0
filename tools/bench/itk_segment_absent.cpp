// Built without ITK: the peer says how to get it.
#include "tools/bench/itk_segment.h"

namespace meniscus::bench {

bool run_itk_segment(const ItkSegmentInput&, ItkSegmentRun& out) {
  out.error = "ITK not built in (apt-get install libinsighttoolkit5-dev and reconfigure)";
  return false;
}

const char* itk_version() { return "none"; }

}  // namespace meniscus::bench
