#include "engine/app/param_table.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/core/error.h"

namespace meniscus {
namespace {

std::string location(const std::filesystem::path& file, const toml::source_region& where) {
  std::ostringstream out;
  out << file.string();
  if (where.begin.line) out << ":" << where.begin.line << ":" << where.begin.column;
  return out.str();
}

std::string describe(const toml::node& node) {
  std::ostringstream out;
  switch (node.type()) {
    case toml::node_type::string: out << "the string \"" << *node.value<std::string>() << "\""; break;
    case toml::node_type::integer: out << *node.value<int64_t>(); break;
    case toml::node_type::floating_point: out << *node.value<double>(); break;
    case toml::node_type::boolean: out << (*node.value<bool>() ? "true" : "false"); break;
    case toml::node_type::array: out << "an array of " << node.as_array()->size(); break;
    case toml::node_type::table: out << "a table"; break;
    default: out << "a date/time"; break;
  }
  return out.str();
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string range_text(double min, double max) {
  std::ostringstream out;
  if (std::isinf(min) && std::isinf(max)) return "a finite number";
  if (std::isinf(max)) out << "a number >= " << min;
  else if (std::isinf(min)) out << "a number <= " << max;
  else out << "a number in [" << min << ", " << max << "]";
  return out.str();
}

}  // namespace

ParamTable::ParamTable() : consumed_(std::make_shared<std::set<std::string>>()) {}

ParamTable::ParamTable(std::shared_ptr<const toml::table> document, const toml::table* table,
                       std::filesystem::path file, std::string path)
    : document_(std::move(document)),
      table_(table),
      file_(std::move(file)),
      path_(std::move(path)),
      consumed_(std::make_shared<std::set<std::string>>()) {}

std::string ParamTable::field(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void ParamTable::fail(std::string_view key, const std::string& message) const {
  const toml::node* node = table_ ? table_->get(key) : nullptr;
  const toml::source_region where = node ? node->source() : (table_ ? table_->source() : toml::source_region{});
  throw InputError(location(file_, where) + ": field '" + field(key) + "': " + message);
}

const toml::node* ParamTable::find(std::string_view key) const {
  consumed_->insert(std::string(key));
  return table_ ? table_->get(key) : nullptr;
}

bool ParamTable::has(std::string_view key) const { return table_ && table_->contains(key); }

std::vector<std::string> ParamTable::keys() const {
  std::vector<std::string> out;
  if (table_)
    for (const auto& [key, value] : *table_) out.emplace_back(key.str());
  return out;
}

double ParamTable::number(std::string_view key, double fallback, double min, double max) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const std::optional<double> value = node->value<double>();  // integers convert too
  if (!value || node->is_boolean()) fail(key, "expected " + range_text(min, max) + ", got " + describe(*node));
  if (!std::isfinite(*value)) fail(key, "expected " + range_text(min, max) + ", got a non-finite value");
  if (*value < min || *value > max) fail(key, "expected " + range_text(min, max) + ", got " + describe(*node));
  return *value;
}

double ParamTable::required_number(std::string_view key, double min, double max) const {
  if (!has(key)) fail(key, "required " + range_text(min, max) + " is missing");
  return number(key, 0.0, min, max);
}

int64_t ParamTable::integer(std::string_view key, int64_t fallback, int64_t min, int64_t max) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const std::string expected = "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (!node->is_integer()) fail(key, expected + ", got " + describe(*node));
  const int64_t value = *node->value<int64_t>();
  if (value < min || value > max) fail(key, expected + ", got " + std::to_string(value));
  return value;
}

bool ParamTable::boolean(std::string_view key, bool fallback) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  if (!node->is_boolean()) fail(key, "expected true or false, got " + describe(*node));
  return *node->value<bool>();
}

std::string ParamTable::string(std::string_view key, std::string fallback,
                               std::initializer_list<std::string_view> allowed) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  std::string options;
  for (std::string_view a : allowed) options += (options.empty() ? "" : ", ") + std::string("\"") + std::string(a) + "\"";
  if (!node->is_string())
    fail(key, "expected " + (options.empty() ? std::string("a string") : "one of " + options) + ", got " + describe(*node));
  std::string value = *node->value<std::string>();
  if (allowed.size() && std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    fail(key, "expected one of " + options + ", got \"" + value + "\"");
  return value;
}

std::string ParamTable::required_string(std::string_view key) const {
  if (!has(key)) fail(key, "required string is missing");
  return string(key, "");
}

glm::vec3 ParamTable::vec3(std::string_view key, glm::vec3 fallback) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const toml::array* array = node->as_array();
  if (!array || array->size() != 3) fail(key, "expected an array of 3 numbers, got " + describe(*node));
  glm::vec3 out;
  for (int i = 0; i < 3; ++i) {
    const toml::node& element = *array->get(i);
    const std::optional<double> value = element.value<double>();
    if (!value || element.is_boolean() || !std::isfinite(*value))
      fail(key, "expected an array of 3 finite numbers, element " + std::to_string(i) + " is " + describe(element));
    out[i] = static_cast<float>(*value);
  }
  return out;
}

glm::vec3 ParamTable::direction(std::string_view key, glm::vec3 fallback) const {
  const glm::vec3 value = vec3(key, fallback);
  if (glm::length(value) < 1e-6f) fail(key, "expected a non-zero direction, got [0, 0, 0]");
  return glm::normalize(value);
}

glm::vec3 ParamTable::color(std::string_view key, glm::vec3 fallback) const {
  const glm::vec3 value = vec3(key, fallback);
  if (value.x < 0 || value.y < 0 || value.z < 0) fail(key, "expected a colour with components >= 0");
  return value;
}

ParamTable ParamTable::table(std::string_view key) const {
  const toml::node* node = find(key);
  if (!node) return ParamTable(document_, nullptr, file_, field(key));
  if (!node->is_table()) fail(key, "expected a table, got " + describe(*node));
  return ParamTable(document_, node->as_table(), file_, field(key));
}

std::vector<ParamTable> ParamTable::array_of_tables(std::string_view key) const {
  const toml::node* node = find(key);
  std::vector<ParamTable> out;
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array || !array->is_array_of_tables()) fail(key, "expected [[" + std::string(key) + "]] tables, got " + describe(*node));
  for (size_t i = 0; i < array->size(); ++i)
    out.emplace_back(document_, array->get(i)->as_table(), file_, field(key) + "[" + std::to_string(i) + "]");
  return out;
}

void ParamTable::finish() const {
  if (!table_) return;
  for (const auto& [key, value] : *table_) {
    const std::string name(key.str());
    if (consumed_->count(name)) continue;
    std::string suggestion;
    size_t best = 3;  // suggest only close matches
    for (const std::string& known : *consumed_) {
      const size_t d = edit_distance(name, known);
      if (d < best) {
        best = d;
        suggestion = known;
      }
    }
    fail(name, "unknown field" + (suggestion.empty() ? std::string() : " (did you mean '" + suggestion + "'?)"));
  }
}

ParamTable parse_toml_file(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) throw InputError(file.string() + ": no such file");
  try {
    auto document = std::make_shared<toml::table>(toml::parse_file(file.string()));
    const toml::table* root = document.get();
    return ParamTable(std::move(document), root, file, "");
  } catch (const toml::parse_error& error) {
    throw InputError(location(file, error.source()) + ": " + std::string(error.description()));
  }
}

}  // namespace meniscus
