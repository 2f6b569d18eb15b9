// The checker against small buggy programs (each with exactly one bug) and their correct
// twins (no report at all), and the trace file of a two-stream pipeline (docs/RULES.md R21).
#include <signal.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "check/run_case.h"

namespace {

using check_test::CaseRun;
using check_test::Report;
using check_test::run_case;

std::string all_reports(const CaseRun &r) {
  std::string s;
  for (const Report &rep : r.reports) s += rep.text;
  return s.empty() ? r.err : s;
}

// The run ended normally with exactly one report, of `category`; returns its text.
std::string single_report(const CaseRun &r, const std::string &category) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.reports.size(), 1u) << all_reports(r);
  EXPECT_EQ(r.count(category), 1u) << all_reports(r);
  EXPECT_NE(r.err.find("openacl-check: finished: " +
                       std::string(category == "warning" ? "0 problem(s), 1 warning(s)"
                                                         : "1 problem(s), 0 warning(s)")),
            std::string::npos)
      << r.err;
  return r.reports.empty() ? std::string() : r.reports.front().text;
}

void expect_contains(const std::string &text, const std::vector<std::string> &parts) {
  for (const auto &p : parts)
    EXPECT_NE(text.find(p), std::string::npos) << "'" << p << "' not in:\n" << text;
}

// --- each bug reported exactly once, with both tasks and the fix -------------------------

TEST(CheckRace, MissingWaitNamesBothTasksAndTheMissingWait) {
  CaseRun r = run_case("bug_missing_wait", "OPENACL_CHECK=1");
  std::string text = single_report(r, "race");
  const std::string s1 = r.handles["s1"], s2 = r.handles["s2"];
  ASSERT_FALSE(s1.empty());
  expect_contains(
      text, {"device memory", "first:  writes memset", "stream " + s1,
             "enqueued by aclrtMemsetAsync at missing_wait", "second: reads  memcpy \"D2H\"",
             "stream " + s2, "enqueued by aclrtMemcpyAsync at missing_wait",
             "aclrtRecordEvent(event, " + s1 + ")", "aclrtStreamWaitEvent(" + s2 + ", event)"});
}

TEST(CheckRace, MappedMemoryIsCheckedToo) {
  CaseRun r = run_case("bug_mapped_wait", "OPENACL_CHECK=1");
  std::string text = single_report(r, "race");
  expect_contains(
      text,
      {"device memory", "first:  writes memset", "enqueued by aclrtMemsetAsync at missing_wait",
       "second: reads  memcpy \"D2H\"", "aclrtStreamWaitEvent(" + r.handles["s2"] + ", event)"});
}

TEST(CheckRace, NotifyWaitEnqueuedFirstIsDecidedByItsRecord) {
  CaseRun r = run_case("bug_notify_write_after_record", "OPENACL_CHECK=1");
  std::string text = single_report(r, "race");
  expect_contains(text, {"first:  reads  memcpy \"D2H\"", "stream " + r.handles["s2"],
                         "second: writes memset", "stream " + r.handles["s1"]});
}

TEST(CheckRace, RepeatedRaceIsReportedOnce) {
  CaseRun r = run_case("bug_missing_wait_loop", "OPENACL_CHECK=1");
  single_report(r, "race");
}

TEST(CheckRace, WriteAfterTheRecordIsNotCoveredByTheWait) {
  CaseRun r = run_case("bug_write_after_record", "OPENACL_CHECK=1");
  std::string text = single_report(r, "race");
  const std::string s1 = r.handles["s1"], s2 = r.handles["s2"];
  // The read on s2 came first; the second memset on s1 must wait for it.
  expect_contains(
      text, {"first:  reads  memcpy \"D2H\"", "stream " + s2, "second: writes memset",
             "aclrtRecordEvent(event, " + s2 + ")", "aclrtStreamWaitEvent(" + s1 + ", event)"});
}

TEST(CheckRace, KernelsOnTwoStreams) {
  CaseRun r = run_case("bug_kernels", "OPENACL_CHECK=1");
  std::string text = single_report(r, "race");
  expect_contains(text, {"kernel \"chk_fill\"", "aclrtLaunchKernel at kernels"});
}

TEST(CheckHost, ReadOfABufferAPendingCopyWrites) {
  CaseRun r = run_case("bug_host_read", "OPENACL_CHECK=1");
  std::string text = single_report(r, "host-race");
  expect_contains(text, {"aclrtMemcpy reads page-locked host memory", "pending task still writes",
                         "memcpy \"D2H\"", "host: aclrtMemcpy at host_read",
                         "aclrtSynchronizeStream(" + r.handles["s1"] + ")"});
}

TEST(CheckHost, ReuseOfABufferAPendingCopyReads) {
  CaseRun r = run_case("bug_host_reuse", "OPENACL_CHECK=1");
  std::string text = single_report(r, "host-race");
  expect_contains(text, {"aclrtMemcpy writes page-locked host memory", "pending task still reads",
                         "memcpy \"H2D\""});
}

TEST(CheckHost, HostFuncOnAnotherStreamDoesNotFollowTheTask) {
  CaseRun r = run_case("bug_host_func", "OPENACL_CHECK=1");
  std::string text = single_report(r, "host-race");
  expect_contains(text, {"aclrtMemcpy reads device memory", "pending task still writes", "memset",
                         "host: aclrtMemcpy at read_back"});
}

TEST(CheckFree, FreeOfDeviceMemoryAPendingTaskUses) {
  CaseRun r = run_case("bug_free_early", "OPENACL_CHECK=1");
  std::string text = single_report(r, "use-after-free");
  expect_contains(text, {"aclrtFree frees device memory", "memset", "free: aclrtFree at free_early",
                         "aclrtSynchronizeStream(" + r.handles["s1"] + ") before aclrtFree"});
}

TEST(CheckFree, FreeHostOfABufferAPendingCopyReads) {
  CaseRun r = run_case("bug_free_host_early", "OPENACL_CHECK=1");
  std::string text = single_report(r, "use-after-free");
  expect_contains(text, {"aclrtFreeHost frees page-locked host memory", "memcpy \"H2D\""});
}

TEST(CheckLeak, StreamNamesWhereItWasCreated) {
  CaseRun r = run_case("bug_leak_stream", "OPENACL_CHECK=1");
  std::string text = single_report(r, "leak");
  expect_contains(text, {"leak: stream " + r.handles["s1"], "aclrtDestroyStream",
                         "created by aclrtCreateStream at ", "(check_cases)"});
}

TEST(CheckLeak, AllocationsFromOneSiteAreGrouped) {
  CaseRun r = run_case("bug_leak_memory", "OPENACL_CHECK=1");
  std::string text = single_report(r, "leak");
  expect_contains(text, {"3 device allocations", "12288 bytes", "aclrtFree",
                         "created by aclrtMalloc at ", "(check_cases)"});
}

TEST(CheckLeak, Event) {
  CaseRun r = run_case("bug_leak_event", "OPENACL_CHECK=1");
  std::string text = single_report(r, "leak");
  expect_contains(text, {"leak: event " + r.handles["e"], "aclrtDestroyEvent",
                         "created by aclrtCreateEvent at leak_event"});
}

TEST(CheckWarning, DefaultContextThroughGetCurrentContext) {
  CaseRun r = run_case("bug_default_context", "OPENACL_CHECK=1");
  std::string text = single_report(r, "warning");
  expect_contains(text, {"aclrtGetCurrentContext used the default context",
                         "call: aclrtGetCurrentContext at bug_default_context"});
}

// --- the correct twins: no report at all ---------------------------------------------------

class CheckTwin : public ::testing::TestWithParam<const char *> {};

TEST_P(CheckTwin, ReportsNothing) {
  CaseRun r = run_case(GetParam(), "OPENACL_CHECK=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.reports.empty()) << all_reports(r);
  EXPECT_NE(r.err.find("openacl-check: finished: 0 problem(s), 0 warning(s)"), std::string::npos)
      << r.err;
}

INSTANTIATE_TEST_SUITE_P(Cases, CheckTwin,
                         ::testing::Values("ok_missing_wait", "ok_mapped_wait", "ok_notify_wait",
                                           "ok_notify_wait_first", "ok_host_read_after_query",
                                           "ok_value_wait", "ok_stream_sync", "ok_event_sync",
                                           "ok_device_sync", "ok_write_after_record", "ok_kernels",
                                           "ok_kernels_share_input", "ok_read_read", "ok_host_read",
                                           "ok_host_reuse", "ok_host_func", "ok_free_early",
                                           "ok_free_host_early", "ok_leak_stream", "ok_leak_memory",
                                           "ok_leak_event", "ok_default_context", "trace_pipeline",
                                           "trace_overlap"));

// --- modes ---------------------------------------------------------------------------------

TEST(CheckMode, OffByDefault) {
  CaseRun r = run_case("bug_missing_wait", "");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("openacl-check"), std::string::npos) << r.err;
}

TEST(CheckMode, AbortStopsAtTheFirstReport) {
  CaseRun r = run_case("bug_missing_wait", "OPENACL_CHECK=abort");
  // Killed by SIGABRT (the shell that runs the case reports it as exit 128 + 6).
  EXPECT_TRUE(r.signal == SIGABRT || r.exit_code == 128 + SIGABRT) << "exit " << r.exit_code << "\n"
                                                                   << r.err;
  EXPECT_EQ(r.count("race"), 1u) << r.err;
  EXPECT_NE(r.err.find("OPENACL_CHECK=abort"), std::string::npos) << r.err;
}

TEST(CheckMode, AclJsonTurnsItOn) {
  std::string path = ::testing::TempDir() + "check_acl_" + std::to_string(::getpid()) + ".json";
  std::ofstream(path) << R"({"openacl": {"check": "1"}})";
  CaseRun r = run_case("bug_free_early", "CHECK_ACL_JSON=" + path);
  single_report(r, "use-after-free");
  std::remove(path.c_str());
}

// --- the trace -----------------------------------------------------------------------------

struct TraceFile {
  nlohmann::json events;
  CaseRun run;
};

TraceFile trace_of(const std::string &name, const std::string &extra_env) {
  std::string path = ::testing::TempDir() + "check_trace_" + std::to_string(::getpid()) + ".json";
  TraceFile t;
  t.run = run_case(name, "OPENACL_TRACE=" + path + " " + extra_env);
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "no trace written\n" << t.run.err;
  if (!in) return t;
  nlohmann::json doc = nlohmann::json::parse(in);  // throws (fails the test) if not JSON
  t.events = doc.at("traceEvents");
  std::remove(path.c_str());
  return t;
}

TEST(Trace, TracksTasksFlowsHostSpansAndMemory) {
  TraceFile t = trace_of("trace_pipeline", "OPENACL_CHECK=1");
  ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
  EXPECT_TRUE(t.run.reports.empty()) << t.run.err;
  const std::string s1 = t.run.handles["s1"], s2 = t.run.handles["s2"];
  ASSERT_TRUE(t.events.is_array());

  int64_t device_pid = -1;
  std::map<int64_t, std::string> thread_names;
  for (const auto &e : t.events) {
    if (e["ph"] != "M") continue;
    if (e["name"] == "process_name" && e["args"]["name"] == "device 0") device_pid = e["pid"];
    if (e["name"] == "thread_name") thread_names[e.value("tid", int64_t{0})] = e["args"]["name"];
  }
  ASSERT_NE(device_pid, -1) << "no process named 'device 0'";
  int64_t tid1 = -1, tid2 = -1;
  for (auto &[tid, name] : thread_names) {
    if (name.find("stream " + s1) != std::string::npos) tid1 = tid;
    if (name.find("stream " + s2) != std::string::npos) tid2 = tid;
    if (name.find("stream ") == 0) {
      EXPECT_NE(name.find("(context 0x"), std::string::npos) << name;
    }
  }
  ASSERT_NE(tid1, -1) << "no track for " << s1;
  ASSERT_NE(tid2, -1) << "no track for " << s2;

  std::map<std::pair<int64_t, std::string>, int> tasks;  // (tid, kind/label) -> count
  std::map<uint64_t, double> flow_start, flow_end;
  int host_syncs = 0;
  int64_t max_memory = 0;
  for (const auto &e : t.events) {
    std::string ph = e["ph"];
    if (ph == "X" && e["pid"] == device_pid) {
      int64_t tid = e["tid"];
      tasks[{tid, e["cat"].get<std::string>() + "/" + e["name"].get<std::string>()}]++;
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      EXPECT_LE(e["args"]["enqueue_us"].get<double>(), e["ts"].get<double>() + 0.001);
      if (e["cat"] == "memcpy") {
        EXPECT_EQ(e["args"]["bytes"], 4096);
        EXPECT_FALSE(e["args"]["ranges"].empty());
      }
    }
    if (ph == "X" && e["cat"] == "host" && e["name"] == "aclrtSynchronizeStream") ++host_syncs;
    if (ph == "s") {
      EXPECT_EQ(e["tid"], tid1);
      flow_start[e["id"]] = e["ts"];
    }
    if (ph == "f") {
      EXPECT_EQ(e["tid"], tid2);
      EXPECT_EQ(e["bp"], "e");
      flow_end[e["id"]] = e["ts"];
    }
    if (ph == "C" && e["name"] == "device memory in use") {
      max_memory = std::max<int64_t>(max_memory, e["args"]["bytes"]);
    }
  }
  EXPECT_EQ((tasks[{tid1, "memcpy/H2D"}]), 3);
  EXPECT_EQ((tasks[{tid1, "event_record/event_record"}]), 3);
  EXPECT_EQ((tasks[{tid2, "event_wait/event_wait"}]), 3);
  EXPECT_EQ((tasks[{tid2, "kernel/chk_fill"}]), 3);
  EXPECT_EQ((tasks[{tid2, "memcpy/D2H"}]), 3);
  ASSERT_EQ(flow_start.size(), 3u);
  ASSERT_EQ(flow_end.size(), 3u);
  for (auto &[id, ts] : flow_start) {
    ASSERT_TRUE(flow_end.count(id)) << "flow " << id << " has no end";
    EXPECT_LE(ts, flow_end[id]) << "flow " << id << " goes back in time";
  }
  EXPECT_EQ(host_syncs, 3);
  EXPECT_EQ(max_memory, 2 * 4096);
}

TEST(Trace, IsWrittenAtExitWithoutFinalize) {
  TraceFile t = trace_of("exit_without_finalize", "");
  ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
  int memsets = 0;
  for (const auto &e : t.events) memsets += e["ph"] == "X" && e["name"] == "memset";
  EXPECT_EQ(memsets, 1) << t.events.dump().substr(0, 2000);
}

TEST(CheckExit, AProgramThatNeverFinalizesGetsTheLastLineAtExit) {
  CaseRun r = run_case("exit_without_finalize", "OPENACL_CHECK=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(
                "openacl-check: finished at exit, without aclFinalize: 0 problem(s), 0 warning(s)"),
            std::string::npos)
      << r.err;
}

TEST(Trace, UnwritablePathIsReported) {
  CaseRun r = run_case("ok_stream_sync", "OPENACL_TRACE=/nonexistent-dir/t.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("openacl-trace: cannot write the trace to '/nonexistent-dir/t.json'"),
            std::string::npos)
      << r.err;
}

}  // namespace
