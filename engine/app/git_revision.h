#pragma once
#include <string>

namespace meniscus {
// The source revision the binary was built from (`git describe --always --dirty` at configure
// time), recorded in timing captures so two captures can be traced to their code.
std::string git_revision();
}  // namespace meniscus
