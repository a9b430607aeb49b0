#include "engine/core/flag_values.h"

#include <charconv>
#include <string>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus {
namespace {

[[noreturn]] void reject(std::string_view flag, const std::string& what, std::string_view text, const char* note) {
  throw InputError(std::string(flag) + ": expected " + what + (note ? std::string(" (") + note + ")" : "") +
                   ", got '" + std::string(text) + "'");
}

// from_chars, unlike strtol and strtod, skips no blanks and takes no '+': what it reads is the
// whole value or nothing.
template <class T>
bool read_whole(std::string_view text, T& value) {
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  return error == std::errc() && end == last;
}

}  // namespace

long long parse_integer(std::string_view flag, std::string_view text, long long lo, long long hi, const char* note) {
  long long n = 0;
  if (!read_whole(text, n) || n < lo || n > hi)
    reject(flag, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", text, note);
  return n;
}

double parse_number(std::string_view flag, std::string_view text, double lo, double hi, const char* note) {
  double x = 0.0;
  // NaN compares false to both bounds; from_chars reads "inf" and "nan" as well.
  if (!read_whole(text, x) || !(x >= lo && x <= hi))
    reject(flag, "a number in [" + limits::number_text(lo) + ", " + limits::number_text(hi) + "]", text, note);
  return x;
}

ImageSize parse_image_size(std::string_view flag, std::string_view text, uint32_t lo, uint32_t hi) {
  const size_t x = text.find('x');
  const std::string what =
      "WxH like 1280x720, sides in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (x == std::string_view::npos) reject(flag, what, text, nullptr);
  ImageSize size;
  if (!read_whole(text.substr(0, x), size.width) || !read_whole(text.substr(x + 1), size.height) ||
      size.width < lo || size.width > hi || size.height < lo || size.height > hi)
    reject(flag, what, text, nullptr);
  return size;
}

}  // namespace meniscus
