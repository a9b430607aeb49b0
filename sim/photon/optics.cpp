// Optics::validate (optics.h).
#include "sim/photon/optics.h"

#include <cmath>
#include <string>

#include "engine/core/error.h"

namespace meniscus::sim::photon {

void Optics::validate(size_t triangles) const {
  if (media.size() < 2 || media.size() > 255) throw InputError("optics: needs 2..255 media, the first the air");
  for (size_t m = 0; m < media.size(); ++m) {
    const Medium& medium = media[m];
    const glm::vec3& a = medium.absorption;
    if (!(std::isfinite(medium.ior) && medium.ior > 0.0f))
      throw InputError("optics: medium " + std::to_string(m) + "'s ior must be finite and > 0");
    if (!(std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z) && a.x >= 0.0f && a.y >= 0.0f && a.z >= 0.0f))
      throw InputError("optics: medium " + std::to_string(m) + "'s absorption must be finite and >= 0");
  }
  if (interfaces.size() >= kToggleAirWater) throw InputError("optics: at most 254 interfaces");
  for (size_t i = 0; i < interfaces.size(); ++i)
    if (interfaces[i].front >= media.size() || interfaces[i].back >= media.size())
      throw InputError("optics: interface " + std::to_string(i) + " names a medium there is not");
  if (triangle_interface.empty()) return;
  if (triangle_interface.size() != triangles)
    throw InputError("optics: " + std::to_string(triangle_interface.size()) + " triangle interfaces for " +
                     std::to_string(triangles) + " triangles");
  for (const uint8_t i : triangle_interface)
    if (i != kToggleAirWater && i >= interfaces.size())
      throw InputError("optics: a triangle names interface " + std::to_string(i) + ", which there is not");
}

}  // namespace meniscus::sim::photon
