// FrameGraph::to_dot(): passes are boxes (culled ones grey and dashed), resource versions are
// ellipses, edges are accesses; an edge that needed a barrier is labelled with it, and the
// final transitions of imported resources are dotted edges to a "leaves as" note.
#include <algorithm>
#include <sstream>

#include "engine/graph/frame_graph.h"

namespace meniscus::graph {
namespace {

const char* layout_name(VkImageLayout layout) {
  switch (layout) {
    case VK_IMAGE_LAYOUT_UNDEFINED: return "UNDEFINED";
    case VK_IMAGE_LAYOUT_GENERAL: return "GENERAL";
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL: return "COLOR_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL: return "DEPTH_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL: return "DEPTH_READ_ONLY";
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL: return "SHADER_READ_ONLY";
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL: return "TRANSFER_SRC";
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL: return "TRANSFER_DST";
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR: return "PRESENT_SRC";
    default: return "OTHER";
  }
}

std::string node_id(uint32_t resource, uint32_t version) {
  return "r" + std::to_string(resource) + "v" + std::to_string(version);
}

}  // namespace

std::string FrameGraph::to_dot() const {
  std::ostringstream out;
  out << "digraph frame_graph {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
  for (uint32_t p = 0; p < passes_.size(); ++p) {
    const bool culled = std::find(compiled_.culled.begin(), compiled_.culled.end(), p) != compiled_.culled.end();
    out << "  p" << p << " [shape=box, label=\"" << passes_[p].name;
    if (culled) out << " (culled)\", style=dashed, color=grey, fontcolor=grey];\n";
    else out << "\", style=filled, fillcolor=\"#cfe2ff\"];\n";
  }
  for (uint32_t r = 0; r < resources_.size(); ++r) {
    for (uint32_t v = 0; v <= resources_[r].latest_version; ++v) {
      out << "  " << node_id(r, v) << " [shape=ellipse, label=\"" << resources_[r].name << " v" << v
          << (resources_[r].imported ? " (imported)" : "") << "\"];\n";
    }
  }
  auto barrier_label = [&](uint32_t pass, uint32_t resource) -> std::string {
    for (const CompiledPass& cp : compiled_.order) {
      if (cp.pass != pass) continue;
      for (const Barrier& b : cp.barriers)
        if (b.resource == resource) {
          std::string label = b.is_image ? std::string(layout_name(b.old_layout)) + "→" + layout_name(b.new_layout)
                                         : std::string("barrier");
          return b.aliasing ? label + " (alias)" : label;
        }
    }
    return {};
  };
  for (uint32_t p = 0; p < passes_.size(); ++p) {
    for (const AccessRecord& a : passes_[p].accesses) {
      const std::string label = barrier_label(p, a.resource);
      const std::string attributes = " [label=\"" + std::string(access_name(a.access)) +
                                     (label.empty() ? "" : "\\n" + label) + "\"]";
      if (a.write) out << "  p" << p << " -> " << node_id(a.resource, a.version + 1) << attributes << ";\n";
      else out << "  " << node_id(a.resource, a.version) << " -> p" << p << attributes << ";\n";
    }
  }
  // Imported resources' final transitions hang off their last version.
  for (const Barrier& b : compiled_.final_barriers) {
    const ResourceNode& node = resources_[b.resource];
    const Access final_access = node.kind == ResourceKind::Image ? node.external_image.final : node.external_buffer.final;
    out << "  final" << b.resource << " [shape=plaintext, label=\"leaves as " << access_name(final_access) << "\"];\n";
    out << "  " << node_id(b.resource, node.latest_version) << " -> final" << b.resource << " [style=dotted, label=\""
        << (b.is_image ? std::string(layout_name(b.old_layout)) + "→" + layout_name(b.new_layout) : "barrier")
        << "\"];\n";
  }
  out << "  label=\"" << compiled_.order.size() << " passes, " << compiled_.culled.size() << " culled, "
      << compiled_.memory_with_aliasing / 1024 << " KiB transient memory (" << compiled_.memory_without_aliasing / 1024
      << " KiB without aliasing)\";\n}\n";
  return out.str();
}

}  // namespace meniscus::graph
