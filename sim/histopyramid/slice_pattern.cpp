#include "sim/histopyramid/slice_pattern.h"

#include <cctype>
#include <sstream>

#include "engine/core/error.h"
#include "engine/core/input_limits.h"

namespace meniscus::sim {
namespace {

[[noreturn]] void fail(const std::filesystem::path& header, const std::string& spec, const std::string& what) {
  throw InputError(header.string() + ": field 'data file': " + what + " in '" + spec + "'");
}

struct Range {
  std::string pattern;
  long long first = 0, last = 0, step = 1;
};

bool parse_range(const std::string& spec, Range& range) {
  std::istringstream in(spec);
  if (!(in >> range.pattern >> range.first >> range.last >> range.step)) return false;
  std::string extra;
  return !(in >> extra);  // "LIST" and other forms are not ranges
}

// The pattern with `index` in place of its one %d.
std::string format_name(const std::filesystem::path& header, const std::string& spec, const std::string& pattern,
                        long long index) {
  std::string out;
  int conversions = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t j = i + 1;
    const bool zero_pad = j < pattern.size() && pattern[j] == '0';
    if (zero_pad) ++j;
    size_t width = 0;
    while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9' && width < 100)
      width = width * 10 + size_t(pattern[j++] - '0');
    if (j >= pattern.size() || pattern[j] != 'd') {
      size_t end = j;  // the whole conversion, flags to letter, in the message
      while (end < pattern.size() && !std::isalpha(static_cast<unsigned char>(pattern[end]))) ++end;
      while (end + 1 < pattern.size() && std::isalpha(static_cast<unsigned char>(pattern[end])) &&
             std::string("hlLqjzt").find(pattern[end]) != std::string::npos)
        ++end;  // length modifiers: "%ld"
      fail(header, spec,
           "unsupported conversion '" + pattern.substr(i, end + 1 - i) + "' (only %d, e.g. %03d, and %%)");
    }
    if (width > 32) fail(header, spec, "field width " + std::to_string(width) + " is over 32");
    if (++conversions > 1) fail(header, spec, "more than one %d");
    std::string digits = std::to_string(index < 0 ? -index : index);
    const size_t sign = index < 0 ? 1 : 0;
    if (digits.size() + sign < width) {
      const std::string pad(width - digits.size() - sign, zero_pad ? '0' : ' ');
      digits = zero_pad ? pad + digits : digits;
      if (!zero_pad) out += pad;
    }
    if (index < 0) out += '-';
    out += digits;
    i = j;
  }
  if (conversions == 0) fail(header, spec, "a slice range needs a %d in the pattern");
  return out;
}

}  // namespace

bool is_slice_pattern(const std::string& spec) {
  Range range;
  return parse_range(spec, range);
}

std::vector<std::string> expand_slice_pattern(const std::filesystem::path& header, const std::string& spec) {
  Range r;
  if (!parse_range(spec, r)) fail(header, spec, "expected '<pattern> <first> <last> <step>'");
  // Indices far from zero would overflow the arithmetic below; no volume has that many slices.
  constexpr long long kIndexLimit = 1'000'000'000'000LL;
  for (long long v : {r.first, r.last, r.step})
    if (v < -kIndexLimit || v > kIndexLimit) fail(header, spec, "index " + std::to_string(v) + " is out of range");
  if (r.step == 0) fail(header, spec, "step 0");
  if ((r.last - r.first) / r.step < 0 || (r.last != r.first && (r.last - r.first > 0) != (r.step > 0)))
    fail(header, spec, "the range never reaches its last index");
  const uint64_t count = uint64_t((r.last - r.first) / r.step) + 1;
  limits::check_declared(header, "data file", count, limits::kMaxVolumeAxis, "slice files");
  std::vector<std::string> names;
  names.reserve(count);
  for (uint64_t k = 0; k < count; ++k)
    names.push_back(format_name(header, spec, r.pattern, r.first + (long long)k * r.step));
  return names;
}

}  // namespace meniscus::sim
