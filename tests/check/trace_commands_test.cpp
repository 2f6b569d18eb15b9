// `openacl trace summary` and `openacl trace plot` (tools/trace_commands.cpp) on a trace with
// known times, and on a real trace of a two-stream pipeline.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "check/run_case.h"
#include "trace_commands.h"

namespace {

// Runs `openacl <args>` through the trace subcommands; returns the exit code CLI11_PARSE
// would return and the captured stdout.
int run_tool(std::vector<std::string> args, std::string *out) {
  CLI::App app{"openacl"};
  app.require_subcommand(1);
  openacl_add_trace_commands(app);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  ::testing::internal::CaptureStdout();
  int code = -1;
  try {
    app.parse(args);
    code = 99;  // a subcommand that returns without Success/RuntimeError
  } catch (const CLI::ParseError &e) {
    code = e.get_exit_code();
  }
  *out = ::testing::internal::GetCapturedStdout();
  return code;
}

std::string write_file(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

// Two streams with known spans (us): A [0,10] [20,30], B [5,25]; a host call.
const char *kKnownTrace = R"({"traceEvents":[
 {"ph":"M","name":"process_name","pid":100,"args":{"name":"device 0"}},
 {"ph":"M","name":"thread_name","pid":100,"tid":1,"args":{"name":"stream A"}},
 {"ph":"M","name":"thread_name","pid":100,"tid":2,"args":{"name":"stream B"}},
 {"ph":"X","pid":100,"tid":1,"ts":0,"dur":10,"name":"H2D","cat":"memcpy"},
 {"ph":"X","pid":100,"tid":1,"ts":20,"dur":10,"name":"add","cat":"kernel"},
 {"ph":"X","pid":100,"tid":2,"ts":5,"dur":20,"name":"long_one","cat":"kernel"},
 {"ph":"X","pid":1,"tid":7,"ts":0,"dur":30,"name":"aclrtSynchronizeStream","cat":"host"}
]})";

TEST(TraceSummary, BusyTimeGapsLongestTasksAndOverlap) {
  std::string path = write_file("known_trace.json", kKnownTrace);
  std::string out;
  ASSERT_EQ(run_tool({"trace", "summary", path}, &out), 0) << out;
  EXPECT_NE(out.find("3 task(s) on 2 stream(s) over 30.000 us"), std::string::npos) << out;
  EXPECT_NE(out.find("[1] device 0 / stream A"), std::string::npos) << out;
  EXPECT_NE(
      out.find("2 task(s), busy 20.000 us (66.7% of the trace), 1 idle gap(s) totalling 10.000 us"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("1 task(s), busy 20.000 us (66.7% of the trace), 0 idle gap(s)"),
            std::string::npos)
      << out;
  // The longest task comes first.
  auto longest = out.find("longest tasks:");
  ASSERT_NE(longest, std::string::npos) << out;
  EXPECT_LT(out.find("long_one", longest), out.find("H2D", longest)) << out;
  EXPECT_NE(out.find("[1] & [2]: 10.000 us"), std::string::npos) << out;
  // The host call is not a stream.
  EXPECT_EQ(out.find("aclrtSynchronizeStream"), std::string::npos) << out;
}

TEST(TraceSummary, BadFilesFailWithExitCode1) {
  std::string out;
  std::string path = write_file("not_json.json", "{ nope");
  EXPECT_EQ(run_tool({"trace", "summary", path}, &out), 1);
  EXPECT_NE(run_tool({"trace", "summary", "/nonexistent.json"}, &out), 0);
}

// --- PNG check: chunk CRCs, stored deflate blocks, adler32, pixels -------------------------

uint32_t be32(const std::vector<uint8_t> &b, size_t at) {
  return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}

uint32_t crc32(const uint8_t *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return ~c;
}

struct Image {
  uint32_t w = 0, h = 0;
  std::vector<uint8_t> rgb;
  bool row_has_colour(uint32_t y) const {
    for (uint32_t x = 0; x < w; ++x) {
      const uint8_t *p = &rgb[(size_t(y) * w + x) * 3];
      if (!(p[0] == p[1] && p[1] == p[2])) return true;  // not white or grey
    }
    return false;
  }
};

Image read_png(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Image img;
  const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  EXPECT_TRUE(b.size() > 8 && std::equal(sig, sig + 8, b.begin())) << "not a PNG";
  std::vector<uint8_t> z;
  for (size_t at = 8; at + 12 <= b.size();) {
    uint32_t len = be32(b, at);
    std::string type(b.begin() + at + 4, b.begin() + at + 8);
    EXPECT_EQ(crc32(&b[at + 4], len + 4), be32(b, at + 8 + len)) << type << " CRC";
    if (type == "IHDR") {
      img.w = be32(b, at + 8);
      img.h = be32(b, at + 12);
      EXPECT_EQ(b[at + 16], 8);  // bit depth
      EXPECT_EQ(b[at + 17], 2);  // RGB
    }
    if (type == "IDAT") z.insert(z.end(), b.begin() + at + 8, b.begin() + at + 8 + len);
    at += 12 + len;
  }
  // zlib: header, stored blocks, adler32.
  EXPECT_EQ(z[0], 0x78);
  std::vector<uint8_t> raw;
  size_t at = 2;
  for (bool last = false; !last;) {
    last = z[at] & 1;
    EXPECT_EQ(z[at] >> 1, 0) << "only stored blocks expected";
    uint32_t n = z[at + 1] | z[at + 2] << 8;
    EXPECT_EQ(n ^ 0xFFFFu, uint32_t(z[at + 3] | z[at + 4] << 8));
    raw.insert(raw.end(), z.begin() + at + 5, z.begin() + at + 5 + n);
    at += 5 + n;
  }
  uint32_t a = 1, s = 0;
  for (uint8_t c : raw) a = (a + c) % 65521, s = (s + a) % 65521;
  EXPECT_EQ((s << 16 | a), be32(z, at));
  EXPECT_EQ(raw.size(), size_t(img.w * 3 + 1) * img.h);
  for (uint32_t y = 0; y < img.h; ++y) {
    EXPECT_EQ(raw[y * (img.w * 3 + 1)], 0) << "filter byte of row " << y;
    img.rgb.insert(img.rgb.end(), raw.begin() + y * (img.w * 3 + 1) + 1,
                   raw.begin() + (y + 1) * (img.w * 3 + 1));
  }
  return img;
}

TEST(TracePlot, OneRowPerTrackWithTheTasksDrawn) {
  std::string path = write_file("known_plot.json", kKnownTrace);
  std::string png = ::testing::TempDir() + "known_plot.png";
  std::string out;
  ASSERT_EQ(run_tool({"trace", "plot", path, "-o", png, "--width", "400"}, &out), 0) << out;
  EXPECT_NE(out.find("row 1: pid 1 / tid 7"), std::string::npos) << out;
  EXPECT_NE(out.find("row 3: device 0 / stream B"), std::string::npos) << out;
  Image img = read_png(png);
  EXPECT_EQ(img.w, 400u);
  // Rows: margin 10 + axis 12, then 28 px per track with a 20 px bar.
  ASSERT_EQ(img.h, 10u * 2 + 12 + 28 * 3);
  for (int row = 0; row < 3; ++row) {
    uint32_t mid = 10 + 12 + 28 * row + 10;
    EXPECT_TRUE(row == 0 || img.row_has_colour(mid)) << "row " << row << " has no task drawn";
  }
  // Stream A is idle from 10 to 20 us: the middle of the picture is blank on its row.
  uint32_t y = 10 + 12 + 28 + 10;
  const uint8_t *mid = &img.rgb[(size_t(y) * img.w + img.w / 2) * 3];
  EXPECT_FALSE(mid[0] != mid[1] || mid[1] != mid[2]) << "stream A drawn busy in its gap";
}

TEST(TracePlot, RealTraceOfAPipeline) {
  std::string trace = ::testing::TempDir() + "pipeline_trace.json";
  check_test::CaseRun r = check_test::run_case("trace_pipeline", "OPENACL_TRACE=" + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string out;
  ASSERT_EQ(run_tool({"trace", "summary", trace}, &out), 0) << out;
  EXPECT_NE(out.find("stream " + r.handles["s1"]), std::string::npos) << out;
  EXPECT_NE(out.find("stream " + r.handles["s2"]), std::string::npos) << out;
  EXPECT_NE(out.find("15 task(s) on 2 stream(s)"), std::string::npos)
      << out;  // 3 x (H2D, record; wait, kernel, D2H)
  std::string png = ::testing::TempDir() + "pipeline.png";
  ASSERT_EQ(run_tool({"trace", "plot", trace, "-o", png}, &out), 0) << out;
  Image img = read_png(png);
  EXPECT_EQ(img.w, 1600u);
}

TEST(TraceSummary, StreamsThatRanTogetherOverlap) {
  std::string trace = ::testing::TempDir() + "overlap_trace.json";
  check_test::CaseRun r = check_test::run_case("trace_overlap", "OPENACL_TRACE=" + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string out;
  ASSERT_EQ(run_tool({"trace", "summary", trace}, &out), 0) << out;
  EXPECT_NE(out.find("[1] & [2]: "), std::string::npos) << out;
  EXPECT_EQ(out.find("never ran at the same time"), std::string::npos) << out;
}

}  // namespace
