#pragma once
// A minimal streaming JSON writer: enough for timing files, with correct string escaping and
// no dependency. Callers emit keys and values in order; commas are inserted automatically.
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace meniscus::profile {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(uint32_t number) { return value(uint64_t(number)); }
  JsonWriter& value(int number) { return value(double(number)); }
  std::string str() const { return out_.str(); }

  static std::string escape(std::string_view text);

 private:
  void separate();
  std::ostringstream out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

}  // namespace meniscus::profile
