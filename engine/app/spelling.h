#pragma once
// "Did you mean ...?" for misspelt scene keys and command-line flags.
#include <cstddef>
#include <string>
#include <string_view>

namespace meniscus {

// Levenshtein distance: insertions, deletions and substitutions, one each.
size_t edit_distance(std::string_view a, std::string_view b);

// The name in `names` closest to `word`, if closer than `limit` edits; empty otherwise.
template <typename Names, typename NameOf>
std::string closest_name(std::string_view word, const Names& names, NameOf name_of, size_t limit) {
  std::string best_name;
  for (const auto& entry : names) {
    const std::string_view name = name_of(entry);
    if (const size_t d = edit_distance(word, name); d < limit) {
      limit = d;
      best_name = std::string(name);
    }
  }
  return best_name;
}

}  // namespace meniscus
