#include "engine/app/param_table.h"

#include "engine/app/spelling.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/core/error.h"

namespace meniscus {

// The parsed file and, per table, the keys some getter asked for.
struct ParamTable::Document {
  toml::table root;
  std::map<const toml::table*, std::set<std::string, std::less<>>> consumed;
};

namespace {

std::string location(const std::filesystem::path& file, const toml::source_region& where) {
  std::string out = file.string();
  if (where.begin.line) out += ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
  return out;
}

// Shortest text that reads back as the same double, always with a '.' or exponent so that
// `5.0` is not mistaken for the integer 5 in a message about integers.
std::string number_text(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// What the file holds at a node, as a message's "got ..." part.
std::string describe(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "\"" + *node.value<std::string>() + "\"";
    case toml::node_type::integer: return std::to_string(*node.value<int64_t>());
    case toml::node_type::floating_point: return number_text(*node.value<double>());
    case toml::node_type::boolean: return *node.value<bool>() ? "true" : "false";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: {
      const toml::array& array = *node.as_array();
      if (array.size() > 8) return "an array of " + std::to_string(array.size()) + " elements";
      std::string out = "[";
      for (size_t i = 0; i < array.size(); ++i) out += (i ? ", " : "") + describe(*array.get(i));
      return out + "]";
    }
    default: return "a date/time";
  }
}

std::optional<double> as_number(const toml::node& node) {
  if (node.is_integer()) return static_cast<double>(*node.value<int64_t>());
  if (node.is_floating_point()) return *node.value<double>();
  return std::nullopt;
}

std::string range_text(double min, double max) {
  auto bound = [](double v) {
    std::string text = number_text(v);
    return text.ends_with(".0") ? text.substr(0, text.size() - 2) : text;
  };
  if (std::isinf(min) && std::isinf(max)) return "a finite number";
  if (std::isinf(max)) return "a number >= " + bound(min);
  if (std::isinf(min)) return "a number <= " + bound(max);
  return "a number in [" + bound(min) + ", " + bound(max) + "]";
}

std::string vec_text(glm::vec3 v) {
  return "[" + number_text(v.x) + ", " + number_text(v.y) + ", " + number_text(v.z) + "]";
}

}  // namespace

ParamTable::ParamTable() = default;

ParamTable::ParamTable(std::shared_ptr<Document> document, const toml::table* table, toml::source_region anchor,
                       std::filesystem::path file, std::string path)
    : document_(std::move(document)),
      table_(table),
      anchor_(std::move(anchor)),
      file_(std::move(file)),
      path_(std::move(path)) {}

std::string ParamTable::field(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void ParamTable::fail(std::string_view key, const std::string& message) const {
  const toml::node* node = table_ ? table_->get(key) : nullptr;
  const toml::source_region where = node ? node->source() : table_ ? table_->source() : anchor_;
  throw InputError(location(file_, where) + ": field '" + field(key) + "': " + message);
}

const toml::node* ParamTable::find(std::string_view key) const {
  if (!table_) return nullptr;
  document_->consumed[table_].emplace(key);
  return table_->get(key);
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
  const std::optional<double> value = as_number(*node);
  if (!value || !std::isfinite(*value) || *value < min || *value > max)
    fail(key, "expected " + range_text(min, max) + ", got " + describe(*node));
  return *value;
}

double ParamTable::number(std::string_view key) const { return required_number(key); }

double ParamTable::required_number(std::string_view key, double min, double max) const {
  if (!has(key)) fail(key, "expected " + range_text(min, max) + ", got nothing (required field missing)");
  return number(key, 0.0, min, max);
}

int64_t ParamTable::integer(std::string_view key, int64_t fallback, int64_t min, int64_t max) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const std::optional<int64_t> value = node->is_integer() ? node->value<int64_t>() : std::nullopt;
  if (!value || *value < min || *value > max)
    fail(key, "expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " +
                  describe(*node));
  return *value;
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
  for (std::string_view a : allowed) options += (options.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  const std::string expected = allowed.size() ? "one of " + options : "a string";
  if (!node->is_string()) fail(key, "expected " + expected + ", got " + describe(*node));
  std::string value = *node->value<std::string>();
  if (allowed.size() && std::find(allowed.begin(), allowed.end(), value) == allowed.end())
    fail(key, "expected " + expected + ", got " + describe(*node));
  return value;
}

std::string ParamTable::required_string(std::string_view key) const {
  if (!has(key)) fail(key, "expected a string, got nothing (required field missing)");
  return string(key, "");
}

glm::vec3 ParamTable::vec3(std::string_view key, glm::vec3 fallback) const {
  const toml::node* node = find(key);
  if (!node) return fallback;
  const toml::array* array = node->as_array();
  glm::vec3 out{};
  bool ok = array && array->size() == 3;
  for (size_t i = 0; ok && i < 3; ++i) {
    const std::optional<double> value = as_number(*array->get(i));
    ok = value && std::isfinite(*value);
    if (ok) out[static_cast<int>(i)] = static_cast<float>(*value);
  }
  if (!ok) fail(key, "expected an array of 3 finite numbers [x, y, z], got " + describe(*node));
  return out;
}

glm::vec3 ParamTable::direction(std::string_view key, glm::vec3 fallback) const {
  const glm::vec3 value = vec3(key, fallback);
  if (!(glm::length(value) > 1e-6f)) fail(key, "expected a non-zero direction, got " + vec_text(value));
  return glm::normalize(value);
}

glm::vec3 ParamTable::color(std::string_view key, glm::vec3 fallback) const {
  const glm::vec3 value = vec3(key, fallback);
  if (value.x < 0 || value.y < 0 || value.z < 0)
    fail(key, "expected a colour [r, g, b] with components >= 0, got " + vec_text(value));
  return value;
}

ParamTable ParamTable::table(std::string_view key) const {
  const toml::node* node = find(key);
  if (!node) {
    // Absent: errors about its (required) contents point at this table.
    const toml::source_region anchor = table_ ? table_->source() : anchor_;
    return ParamTable(document_, nullptr, anchor, file_, field(key));
  }
  if (!node->is_table()) fail(key, "expected a table, got " + describe(*node));
  return ParamTable(document_, node->as_table(), {}, file_, field(key));
}

std::vector<ParamTable> ParamTable::array_of_tables(std::string_view key) const {
  const toml::node* node = find(key);
  std::vector<ParamTable> out;
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array || !(array->empty() || array->is_array_of_tables()))
    fail(key, "expected [[" + field(key) + "]] tables, got " + describe(*node));
  for (size_t i = 0; i < array->size(); ++i)
    out.push_back(ParamTable(document_, array->get(i)->as_table(), {}, file_, field(key) + "[" + std::to_string(i) + "]"));
  return out;
}

void ParamTable::finish() const {
  if (!table_) return;
  static const std::set<std::string, std::less<>> kNone;
  const auto it = document_->consumed.find(table_);
  const auto& consumed = it != document_->consumed.end() ? it->second : kNone;
  // toml::table iterates in key order; report the first unknown key as it appears in the file.
  const toml::node* first = nullptr;
  std::string name;
  for (const auto& [key, value] : *table_) {
    if (consumed.count(key.str())) continue;
    const auto& a = value.source().begin;
    if (!first || a.line < first->source().begin.line ||
        (a.line == first->source().begin.line && a.column < first->source().begin.column)) {
      first = &value;
      name = std::string(key.str());
    }
  }
  if (!first) return;
  // Only close matches: typos, not guesses.
  const std::string suggestion = closest_name(name, consumed, [](const std::string& k) -> std::string_view { return k; },
                                              std::max<size_t>(2, name.size() / 4) + 1);
  if (!suggestion.empty()) fail(name, "unknown field, did you mean '" + suggestion + "'?");
  std::string known;
  for (const std::string& k : consumed) known += (known.empty() ? "" : ", ") + k;
  fail(name, known.empty() ? "unknown field (this table takes no settings)" : "unknown field; known fields here: " + known);
}

ParamTable parse_toml(std::string_view text, const std::filesystem::path& source_name) {
  auto document = std::make_shared<ParamTable::Document>();
  try {
    document->root = toml::parse(text, source_name.string());
  } catch (const toml::parse_error& error) {
    throw InputError(location(source_name, error.source()) + ": " + std::string(error.description()));
  }
  const toml::table* root = &document->root;
  return ParamTable(std::move(document), root, {}, source_name, "");
}

ParamTable parse_toml_file(const std::filesystem::path& file) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(status)) throw InputError(file.string() + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw InputError(file.string() + ": not a regular file");
  std::ifstream in(file, std::ios::binary);
  if (!in.is_open()) throw InputError(file.string() + ": cannot be opened for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(file.string() + ": read error");
  return parse_toml(text.str(), file);
}

void read_vec3(const ParamTable& table, std::string_view key, float out[3]) {
  const glm::vec3 v = table.vec3(key, {out[0], out[1], out[2]});
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}

}  // namespace meniscus
