#include "engine/profile/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace meniscus::profile {

std::string JsonWriter::escape(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof(buffer), "\\u%04x", c);
          out += buffer;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ << ",";
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  out_ << "{";
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  first_.pop_back();
  out_ << "}";
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  separate();
  out_ << "[";
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  first_.pop_back();
  out_ << "]";
  return *this;
}
JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  out_ << escape(name) << ":";
  after_key_ = true;
  return *this;
}
JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  out_ << escape(text);
  return *this;
}
JsonWriter& JsonWriter::value(double number) {
  separate();
  if (!std::isfinite(number)) {
    out_ << "null";  // JSON has no NaN/inf
  } else {
    // The shortest text that reads back as the same double: nothing lost (trace timestamps in
    // microseconds of a long capture need more than 9 digits), nothing padded.
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), number);
    out_.write(buffer, error == std::errc() ? end - buffer : 0);
  }
  return *this;
}
JsonWriter& JsonWriter::value(uint64_t number) {
  separate();
  out_ << number;
  return *this;
}

}  // namespace meniscus::profile
