// Timing files: formats chosen by suffix, well-formed, with every pass.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/core/error.h"
#include "engine/profile/json_writer.h"
#include "engine/profile/timing_log.h"

namespace meniscus::profile {
namespace {

using Catch::Matchers::Contains;

TimingLog sample_log(double scale) {
  TimingLog log;
  for (uint64_t f = 0; f < 50; ++f) {
    FrameTiming t;
    t.frame = f;
    t.start_ms = 100.0 + 16.6 * double(f);
    t.cpu_ms = 1.0 + 0.01 * double(f % 7);
    const double a = scale * (2.0 + 0.1 * double(f % 5)), b = scale * (0.5 + 0.05 * double(f % 3));
    t.passes = {{"scene.background", a, 0.0, a}, {"output.tonemap", b, a, a + b}};
    t.stages = {{"ballistic", "cpu", 0.3 * scale}};
    t.gpu_ms = a + b;
    log.add(t);
  }
  CaptureMetadata m;
  m.scene = "test \"quoted\" scene";
  m.device = "fake device";
  m.driver = "back\\slash\ttab\nnewline \x01 control";  // every escape the writer knows
  m.vulkan_api = "1.3.230";
  m.git_revision = "0123abc";
  m.sim_backend = "cpu";
  m.timestamp_utc = "2025-01-01T00:00:00Z";
  m.warmup = 10;
  m.width = 64;
  m.height = 32;
  m.frames = 50;
  log.set_metadata(m);
  return log;
}

std::string read(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("json escaping", "[profile][json]") {
  CHECK(JsonWriter::escape("a\"b\\c\n\x01") == "\"a\\\"b\\\\c\\n\\u0001\"");
  JsonWriter json;
  json.begin_object().key("a").value(1.5).key("b").begin_array().value("x").value(uint64_t(2)).end_array().end_object();
  CHECK(json.str() == "{\"a\":1.5,\"b\":[\"x\",2]}");
}

TEST_CASE("statistics file has every pass with its percentiles", "[profile][timing]") {
  const std::string json = sample_log(1.0).to_json();
  CHECK_THAT(json, Contains("\"scene.background\":{\"count\":50,"));
  CHECK_THAT(json, Contains("\"output.tonemap\":{\"count\":50,"));
  CHECK_THAT(json, Contains("\"p95\":") && Contains("\"p99\":") && Contains("\"median\":"));
  CHECK_THAT(json, Contains("\"scene\":\"test \\\"quoted\\\" scene\""));
}

TEST_CASE("chrome trace has complete events in microseconds", "[profile][timing]") {
  const std::string trace = sample_log(1.0).to_chrome_trace();
  CHECK_THAT(trace, Contains("\"traceEvents\":["));
  CHECK_THAT(trace, Contains("\"ph\":\"X\""));
  // The first frame's background pass: 2.0 ms long, so 2000 us.
  CHECK_THAT(trace, Contains("\"name\":\"scene.background\",\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":0,\"dur\":2000"));
}

TEST_CASE("csv has a row per frame and per pass", "[profile][timing]") {
  const std::string csv = sample_log(1.0).to_csv();
  const auto rows = std::count(csv.begin(), csv.end(), '\n');
  CHECK(rows == 1 + 50 * (2 + 2 + 1));  // header + (cpu, gpu, 2 passes, 1 stage) per frame
}

TEST_CASE("csv quotes names with commas and quotes", "[profile][timing]") {
  TimingLog log;
  FrameTiming t;
  t.frame = 3;
  t.passes = {{"blur,\"wide\"", 1.25, 0.0, 1.25}};
  log.add(t);
  CHECK_THAT(log.to_csv(), Contains("3,pass,\"blur,\"\"wide\"\"\",1.25\n"));
}

TEST_CASE("trace keeps the GPU track well nested when passes overlap", "[profile][timing]") {
  // Pass b's TOP_OF_PIPE begin landed before pass a's BOTTOM_OF_PIPE end: drawn from a's end,
  // measured values kept in args.
  TimingLog log;
  FrameTiming t;
  t.start_ms = 10.0;
  t.passes = {{"a", 2.0, 0.0, 2.0}, {"b", 1.5, 1.5, 3.0}};
  log.add(t);
  const std::string trace = log.to_chrome_trace();
  CHECK_THAT(trace, Contains("\"name\":\"a\",\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":0,\"dur\":2000,"));
  CHECK_THAT(trace, Contains("\"name\":\"b\",\"ph\":\"X\",\"pid\":2,\"tid\":1,\"ts\":2000,\"dur\":1000,"
                             "\"args\":{\"frame\":0,\"gpu_ms\":1.5,\"begin_ms\":1.5,\"end_ms\":3}"));
}

TEST_CASE("no frames still writes well-formed statistics", "[profile][timing]") {
  TimingLog log;
  const std::string json = log.to_json();
  // No samples: count 0 and null statistics (NaN has no JSON spelling).
  CHECK_THAT(json, Contains("\"cpu_ms\":{\"count\":0,\"min\":null,\"median\":null"));
  CHECK_THAT(json, Contains("\"frames\":[]"));
}

TEST_CASE("files are written by suffix", "[profile][timing]") {
  const auto dir = std::filesystem::temp_directory_path() / "meniscus-profile-tests";
  std::filesystem::create_directories(dir);
  const TimingLog log = sample_log(1.0);
  log.write((dir / "t.json").string());
  log.write((dir / "t.trace.json").string());
  log.write((dir / "t.csv").string());
  CHECK(read(dir / "t.json") == log.to_json());
  CHECK(read(dir / "t.trace.json") == log.to_chrome_trace());
  CHECK(read(dir / "t.csv") == log.to_csv());
  CHECK_THROWS_WITH(log.write((dir / "no-such-folder" / "t.json").string()), Contains("no-such-folder/t.json"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("an unknown suffix is an error naming the path", "[profile][timing]") {
  CHECK_THROWS_AS(sample_log(1.0).write("/tmp/timings.txt"), InputError);
  CHECK_THROWS_WITH(sample_log(1.0).write("/tmp/timings.txt"), Contains("/tmp/timings.txt"));
}

TEST_CASE("write sample captures", "[.][profile][report]") {
  // Hidden test case: the ctests in CMakeLists.txt use it to produce files to check with Python
  // and two captures for timing-report to compare (b is a 1.5x slower copy of a).
  const char* dir = std::getenv("MENISCUS_WRITE_SAMPLE_CAPTURES");
  REQUIRE(dir);
  std::filesystem::create_directories(dir);
  const std::string base = dir;
  sample_log(1.0).write(base + "/a.json");
  sample_log(1.0).write(base + "/a.trace.json");
  sample_log(1.0).write(base + "/a.csv");
  sample_log(1.5).write(base + "/b.json");
  CHECK(std::filesystem::file_size(base + "/a.json") > 100);
  CHECK(std::filesystem::file_size(base + "/b.json") > 100);
}

}  // namespace meniscus::profile
