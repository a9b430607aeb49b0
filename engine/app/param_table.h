#pragma once
// ParamTable: the one way every part of a scene file is read.
//
// A view on one TOML table that knows its file and its key path (`stage[0]`, `camera`). Typed
// getters mark keys as consumed; finish() rejects whatever was never consumed, so a misspelt
// key is an error rather than a silently ignored setting. A default applies only to an absent
// key, never to a bad value. Every error is an InputError reading
//   scenes/x.toml:12:9: field 'stage[0].count': expected an integer in [1, 10000000], got -5
//
// A stage or pass reads its own table like this:
//   settings.radius = float(t.number("radius", settings.radius, 1e-5, 1e4));
//   settings.color = t.color("color", settings.color);
//   if (settings.a > settings.b) t.fail("b", "must be >= a");   // cross-field checks
//   t.finish();                                                   // after the last getter
//
// Views are cheap to copy. Every view of the same table (copies, or the same key asked for
// twice) shares one record of consumed keys, so reading through one view and finishing
// through another works.
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <toml++/toml.h>

namespace meniscus {

class ParamTable {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  ParamTable();  // an empty table with no file (prefer the absent views table() hands out)

  // Finite number (TOML integers accepted); nan/inf and values outside [min, max] are errors.
  double number(std::string_view key, double fallback, double min = -kInf, double max = kInf) const;
  double number(std::string_view key) const;  // required, any finite value
  double required_number(std::string_view key, double min = -kInf, double max = kInf) const;
  // A TOML integer (5.0 is not one) in [min, max].
  int64_t integer(std::string_view key, int64_t fallback, int64_t min, int64_t max) const;
  bool boolean(std::string_view key, bool fallback) const;
  // With `allowed` non-empty the value must be one of them.
  std::string string(std::string_view key, std::string fallback,
                     std::initializer_list<std::string_view> allowed = {}) const;
  std::string required_string(std::string_view key) const;
  glm::vec3 vec3(std::string_view key, glm::vec3 fallback) const;       // exactly 3 finite numbers
  glm::vec3 direction(std::string_view key, glm::vec3 fallback) const;  // non-zero, normalised
  glm::vec3 color(std::string_view key, glm::vec3 fallback) const;      // components >= 0
  ParamTable table(std::string_view key) const;                         // absent: an empty view
  std::vector<ParamTable> array_of_tables(std::string_view key) const;  // absent: none

  // Neither of these consumes anything.
  bool has(std::string_view key) const;
  std::vector<std::string> keys() const;

  // Throws for the first key (in file order) that no getter consumed, suggesting the closest
  // consumed name, or listing them when none is close.
  void finish() const;

  const std::filesystem::path& file() const { return file_; }
  const std::string& path() const { return path_; }  // "" for the file's root table
  bool empty() const { return table_ == nullptr; }    // the table is absent from the file

  // An InputError located at `key` (at the enclosing table when the key is absent), for checks
  // the getters cannot make, such as one field against another.
  [[noreturn]] void fail(std::string_view key, const std::string& message) const;

 private:
  struct Document;
  friend ParamTable parse_toml(std::string_view, const std::filesystem::path&);
  friend ParamTable parse_toml_file(const std::filesystem::path&);

  ParamTable(std::shared_ptr<Document> document, const toml::table* table, toml::source_region anchor,
             std::filesystem::path file, std::string path);

  const toml::node* find(std::string_view key) const;  // marks `key` consumed
  std::string field(std::string_view key) const;

  std::shared_ptr<Document> document_;  // keeps the parsed file alive while any view exists
  const toml::table* table_ = nullptr;
  toml::source_region anchor_;  // where errors point when the table itself is absent
  std::filesystem::path file_;
  std::string path_;
};

// Parses a TOML file. A missing or unreadable file, or a syntax error, is an InputError with
// the file (and line:column where there is one) and toml++'s description.
ParamTable parse_toml_file(const std::filesystem::path& file);

// Parses TOML text that came from `source_name` (used in messages only): for tests, and for
// settings embedded somewhere other than a file.
ParamTable parse_toml(std::string_view text, const std::filesystem::path& source_name);

// vec3() into a plain float[3] (the simulation stages' parameter structs), which also holds the
// fallback: an absent key leaves it as it is.
void read_vec3(const ParamTable& table, std::string_view key, float out[3]);

}  // namespace meniscus
