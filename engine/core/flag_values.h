#pragma once
// A command-line flag's value read whole, for every command line in the project (meniscus and
// meniscus-bench): an integer or a finite number in [lo, hi], or WxH with both sides in [lo, hi].
// Anything else (trailing text, a sign where none fits, NaN, infinity, out of range) is
// InputError "<flag>: expected <what>, got '<text>'"; `note`, when given, follows <what> in
// parentheses (what the special values mean, or the unit).
#include <cstdint>
#include <string_view>

namespace meniscus {

long long parse_integer(std::string_view flag, std::string_view text, long long lo, long long hi,
                        const char* note = nullptr);
double parse_number(std::string_view flag, std::string_view text, double lo, double hi, const char* note = nullptr);

struct ImageSize {
  uint32_t width = 0, height = 0;
};
ImageSize parse_image_size(std::string_view flag, std::string_view text, uint32_t lo, uint32_t hi);

}  // namespace meniscus
