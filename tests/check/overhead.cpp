// Task throughput with diagnostics off, with the trace, with the checker, and with both
// (docs/perf/check.md). The program runs itself once per setting, as child processes with
// OPENACL_TRACE / OPENACL_CHECK set, so the baseline (off) is measured in the same run.
//
//   check_overhead [tasks]          prints one line per setting and the cost per task
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl.h"

namespace {

#define OK(call)                                                                   \
  do {                                                                             \
    if (aclError e_ = (call); e_ != ACL_SUCCESS) {                                 \
      std::fprintf(stderr, "%s failed: %d %s\n", #call, e_, aclGetRecentErrMsg()); \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

double seconds(const timeval &t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; }
double cpu_seconds(const rusage &u) { return seconds(u.ru_utime) + seconds(u.ru_stime); }

// Two streams, each filling its own buffers with small memsets; every 32 tasks stream 2
// waits for an event recorded on stream 1. Prints tasks per second of wall time and CPU time
// (user + system, every thread) per task, from the first enqueue to the last synchronize:
// the trace's file is written at aclFinalize, outside this window.
int measure(long tasks) {
  OK(aclInit(nullptr));
  OK(aclrtSetDevice(0));
  aclrtStream s[2];
  void *buf[2][8];
  for (int i = 0; i < 2; ++i) {
    OK(aclrtCreateStream(&s[i]));
    for (void *&b : buf[i]) OK(aclrtMalloc(&b, 256, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  rusage cpu0{}, cpu1{};
  getrusage(RUSAGE_SELF, &cpu0);
  auto t0 = std::chrono::steady_clock::now();
  long n = 0;
  for (long i = 0; n < tasks; ++i) {
    for (int k = 0; k < 2; ++k) {
      OK(aclrtMemsetAsync(buf[k][i % 8], 256, static_cast<int>(i), 256, s[k]));
      ++n;
    }
    if (i % 16 == 15) {
      OK(aclrtRecordEvent(e, s[0]));
      OK(aclrtStreamWaitEvent(s[1], e));
      n += 2;
    }
  }
  OK(aclrtSynchronizeStream(s[0]));
  OK(aclrtSynchronizeStream(s[1]));
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  getrusage(RUSAGE_SELF, &cpu1);
  double cpu = cpu_seconds(cpu1) - cpu_seconds(cpu0);
  OK(aclrtDestroyEvent(e));
  for (int i = 0; i < 2; ++i) {
    for (void *b : buf[i]) OK(aclrtFree(b));
    OK(aclrtDestroyStream(s[i]));
  }
  OK(aclrtResetDevice(0));
  OK(aclFinalize());
  std::printf("%.0f %.4f\n", static_cast<double>(n) / secs, cpu * 1e6 / static_cast<double>(n));
  return 0;
}

struct Result {
  double rate = 0;    // tasks per second of wall time
  double cpu_us = 0;  // CPU time (user + system, all threads) per task
};

// Runs this program with the settings in its environment. On a busy machine CPU time per
// task varies much less than wall time.
Result child(const char *self, long tasks, const char *trace, const char *check) {
  std::string cmd = std::string("env -u OPENACL_TRACE -u OPENACL_CHECK ") +
                    (trace ? std::string("OPENACL_TRACE=") + trace + " " : "") +
                    (check ? std::string("OPENACL_CHECK=") + check + " " : "") + "'" + self +
                    "' --child " + std::to_string(tasks) + " 2>/dev/null";
  FILE *p = popen(cmd.c_str(), "r");
  Result r;
  if (p == nullptr || std::fscanf(p, "%lf %lf", &r.rate, &r.cpu_us) != 2) r = Result{};
  if (p != nullptr) pclose(p);
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--child") == 0) return measure(std::atol(argv[2]));
  long tasks = argc > 1 ? std::atol(argv[1]) : 200000;
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return 1;
  self[len] = '\0';
  std::string trace = "/tmp/check_overhead_" + std::to_string(getpid()) + ".json";
  struct Setting {
    const char *name;
    const char *trace;
    const char *check;
  } settings[] = {{"off (baseline)", nullptr, nullptr},
                  {"OPENACL_TRACE", trace.c_str(), nullptr},
                  {"OPENACL_CHECK=1", nullptr, "1"},
                  {"both", trace.c_str(), "1"}};
  std::printf(
      "%ld tasks (memsets on 2 streams, an event record/wait every 32), best of 5 runs\n"
      "  %-16s %14s %8s %14s %8s %10s\n",
      tasks, "setting", "wall tasks/s", "slower", "CPU us/task", "costlier", "+CPU us");
  Result base;
  for (const Setting &s : settings) {
    Result best;
    for (int rep = 0; rep < 5; ++rep) {
      Result r = child(self, tasks, s.trace, s.check);
      best.rate = std::max(best.rate, r.rate);
      best.cpu_us = best.cpu_us == 0 ? r.cpu_us : std::min(best.cpu_us, r.cpu_us);
    }
    if (base.rate == 0) base = best;
    std::printf("  %-16s %14.0f %7.2fx %14.3f %7.2fx %+10.3f\n", s.name, best.rate,
                best.rate > 0 ? base.rate / best.rate : 0.0, best.cpu_us, best.cpu_us / base.cpu_us,
                best.cpu_us - base.cpu_us);
  }
  std::remove(trace.c_str());
  return 0;
}
