#pragma once
// ParamTable: the one way every part of a scene file is read.
//
// A view on one TOML table that knows its file and its key path (`stage[0]`, `camera`). Typed
// getters mark keys as consumed; finish() rejects whatever was never consumed, so a misspelt
// key is an error rather than a silently ignored setting. A default applies only to an absent
// key, never to a bad value. Every error is an InputError reading
//   scenes/x.toml:12:9: field 'stage[0].count': expected an integer in [1, 10000000], got -5
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <toml++/toml.h>

namespace meniscus {

class ParamTable {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  // `document` keeps the parsed file alive for as long as any view of it exists.
  ParamTable(std::shared_ptr<const toml::table> document, const toml::table* table,
             std::filesystem::path file, std::string path);
  ParamTable();  // an empty table (for absent sections)

  double number(std::string_view key, double fallback, double min = -kInf, double max = kInf) const;
  double required_number(std::string_view key, double min = -kInf, double max = kInf) const;
  int64_t integer(std::string_view key, int64_t fallback, int64_t min, int64_t max) const;
  bool boolean(std::string_view key, bool fallback) const;
  std::string string(std::string_view key, std::string fallback,
                     std::initializer_list<std::string_view> allowed = {}) const;
  std::string required_string(std::string_view key) const;
  glm::vec3 vec3(std::string_view key, glm::vec3 fallback) const;
  glm::vec3 direction(std::string_view key, glm::vec3 fallback) const;  // non-zero, normalised
  glm::vec3 color(std::string_view key, glm::vec3 fallback) const;      // components >= 0
  ParamTable table(std::string_view key) const;                         // absent: empty
  std::vector<ParamTable> array_of_tables(std::string_view key) const;  // absent: empty
  std::vector<std::string> keys() const;
  bool has(std::string_view key) const;

  // Throws for the first key that no getter consumed, suggesting the closest known name.
  void finish() const;

  const std::filesystem::path& file() const { return file_; }
  const std::string& path() const { return path_; }
  bool empty() const { return table_ == nullptr; }

  // An InputError located at `key` (or at the table when the key is absent).
  [[noreturn]] void fail(std::string_view key, const std::string& message) const;

 private:
  const toml::node* find(std::string_view key) const;
  std::string field(std::string_view key) const;

  std::shared_ptr<const toml::table> document_;
  const toml::table* table_ = nullptr;
  std::filesystem::path file_;
  std::string path_;
  std::shared_ptr<std::set<std::string>> consumed_;
};

// Parses a TOML file; a missing file or a syntax error is an InputError with file:line:col.
ParamTable parse_toml_file(const std::filesystem::path& file);

}  // namespace meniscus
