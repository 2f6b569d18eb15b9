// openacl_fuzz: the API-sequence fuzzer of issue 10.
//
//   openacl_fuzz [--seed S] [--calls N] [--threads T] [--seconds X] [--stats S] [--stall S]
//                [--finalize-every N] [--no-faults] [--race-safe | --no-race-safe]
//
// Environment overrides (so that a ctest run can be replayed with another seed):
// OPENACL_FUZZ_SEED, OPENACL_FUZZ_CALLS, OPENACL_FUZZ_THREADS, OPENACL_FUZZ_SECONDS.
// Exit status: 0 when every invariant held, 1 on a violation; a crash or hang aborts after
// printing the seed and each thread's current call.
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <dirent.h>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "fuzz.h"

extern "C" void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

// The fuzzer asks for huge allocations (aclrtMallocHost(1 TiB) must fail cleanly): the
// sanitizer allocators abort on them unless told to return NULL as malloc does. These are
// defaults; ASAN_OPTIONS / TSAN_OPTIONS from the environment add to them.
extern "C" const char *__asan_default_options() { return "allocator_may_return_null=1"; }
extern "C" const char *__tsan_default_options() { return "allocator_may_return_null=1"; }

namespace fuzz {

namespace {

using Clock = std::chrono::steady_clock;

// Where every thread is: printed on a hang, a sanitizer report or a fatal signal. Reads only
// atomics, so that it is usable from a signal handler in practice.
void print_where() {
  World &w = world();
  if (w.opt.seconds > 0)
    std::fprintf(
        stderr,
        "[fuzz] seed=%llu: replay with openacl_fuzz --seed %llu --seconds %.0f --threads %d\n",
        static_cast<unsigned long long>(w.opt.seed), static_cast<unsigned long long>(w.opt.seed),
        w.opt.seconds, w.opt.threads);
  else
    std::fprintf(
        stderr,
        "[fuzz] seed=%llu: replay with openacl_fuzz --seed %llu --calls %llu --threads %d\n",
        static_cast<unsigned long long>(w.opt.seed), static_cast<unsigned long long>(w.opt.seed),
        static_cast<unsigned long long>(w.opt.calls), w.opt.threads);
  for (Progress *p : w.progress)
    std::fprintf(stderr, "[fuzz]   %-10s calls=%-8llu now in %s\n", p->name,
                 static_cast<unsigned long long>(p->calls.load()), p->call.load());
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
// Without a sanitizer (whose own handler reports and then calls print_where): name the seed.
void on_fatal_signal(int sig) {
  std::fprintf(stderr, "[fuzz] fatal signal %d\n", sig);
  print_where();
  signal(sig, SIG_DFL);
  raise(sig);
}
#endif

uint64_t env_or(const char *name, uint64_t fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

Options parse(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "openacl_fuzz: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seed") o.seed = std::strtoull(next(), nullptr, 0);
    else if (a == "--calls") o.calls = std::strtoull(next(), nullptr, 0);
    else if (a == "--threads") o.threads = std::atoi(next());
    else if (a == "--seconds") o.seconds = std::atof(next());
    else if (a == "--stats") o.stats_s = std::atoi(next());
    else if (a == "--stall") o.stall_s = std::atoi(next());
    else if (a == "--finalize-every") o.finalize_every = std::strtoull(next(), nullptr, 0);
    else if (a == "--no-faults") o.faults = false;
    else if (a == "--race-safe") o.race_safe = true;
    else if (a == "--no-race-safe") o.race_safe = false;
    else if (a == "-v") o.verbose = true;
    else {
      std::fprintf(stderr, "openacl_fuzz: unknown argument %s (see tests/fuzz/main.cpp)\n",
                   a.c_str());
      std::exit(2);
    }
  }
  o.seed = env_or("OPENACL_FUZZ_SEED", o.seed);
  o.calls = env_or("OPENACL_FUZZ_CALLS", o.calls);
  o.threads = static_cast<int>(env_or("OPENACL_FUZZ_THREADS", static_cast<uint64_t>(o.threads)));
  if (const char *s = std::getenv("OPENACL_FUZZ_SECONDS"); s && *s) o.seconds = std::atof(s);
  if (o.threads < 1) o.threads = 1;
  if (o.finalize_every == 0) {
    // A handful of finalize/re-init cycles per run; a timed run finalizes every ~200k calls.
    uint64_t total = o.seconds > 0 ? 1200000 : o.calls * static_cast<uint64_t>(o.threads);
    o.finalize_every = std::max<uint64_t>(2000, total / 6);
  }
  return o;
}

long rss_kb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

int open_fds() {
  int n = 0;
  if (DIR *d = opendir("/proc/self/fd")) {
    while (readdir(d) != nullptr) ++n;
    closedir(d);
  }
  return n - 2;
}

void print_stats(double t) {
  Stats &s = world().stats;
  std::fprintf(
      stderr,
      "[fuzz] stats t=%.0fs calls=%llu finalizes=%llu canary_rounds=%llu live: contexts=%lld "
      "streams=%lld events=%lld mem=%lld fds=%d rss_kb=%ld\n",
      t, static_cast<unsigned long long>(s.calls.load()),
      static_cast<unsigned long long>(s.finalizes.load()),
      static_cast<unsigned long long>(s.canary_rounds.load()),
      static_cast<long long>(s.live_contexts.load()), static_cast<long long>(s.live_streams.load()),
      static_cast<long long>(s.live_events.load()), static_cast<long long>(s.live_mem.load()),
      open_fds(), rss_kb());
}

// Every thread's stack, from gdb when the machine has it: the watchdog's hang report.
void dump_stacks() {
  if (access("/usr/bin/gdb", X_OK) != 0) return;
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);  // let the child gdb attach to us
  // gdb's stdout (the stacks) to our stderr, then its own messages away: in the other order
  // the stacks went to /dev/null too, and issue 16's hang left none.
  std::string cmd =
      "timeout 120 /usr/bin/gdb -p " + std::to_string(getpid()) +
      " -batch -nx -ex 'set pagination off' -ex 'thread apply all bt 30' 1>&2 2>/dev/null";
  if (std::system(cmd.c_str()) != 0)
    std::fprintf(stderr, "[fuzz] (gdb could not dump the stacks)\n");
}

// Aborts when a thread that is not done made no call for stall_s seconds.
void watchdog(std::atomic<bool> &finished) {
  World &w = world();
  std::vector<uint64_t> last(w.progress.size(), ~uint64_t{0});
  std::vector<Clock::time_point> since(w.progress.size(), Clock::now());
  auto start = Clock::now(), last_stats = start;
  while (!finished.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    auto now = Clock::now();
    double t = std::chrono::duration<double>(now - start).count();
    if (w.opt.seconds > 0 && t >= w.opt.seconds) w.stop.store(true);
    if (w.opt.stats_s > 0 && now - last_stats >= std::chrono::seconds(w.opt.stats_s)) {
      print_stats(t);
      last_stats = now;
    }
    for (size_t i = 0; i < w.progress.size(); ++i) {
      Progress *p = w.progress[i];
      uint64_t c = p->calls.load();
      if (c != last[i] || p->done.load()) {
        last[i] = c;
        since[i] = now;
      } else if (now - since[i] > std::chrono::seconds(w.opt.stall_s)) {
        std::fprintf(stderr, "[fuzz] HANG: thread %s made no progress for %d s (in %s)\n", p->name,
                     w.opt.stall_s, p->call.load());
        print_where();
        dump_stacks();
        print_where();  // again: gdb's output is long
        std::abort();
      }
    }
  }
}

}  // namespace

// Names the thread after its Progress record, so that sanitizer reports show "fuzz3" etc.
void name_thread(const Progress &p) { prctl(PR_SET_NAME, p.name, 0, 0, 0); }

namespace {

// Serves aclrtProcessReport for the streams the fuzz threads subscribe to this thread.
void report_server(int index, Progress &p) {
  World &w = world();
  name_thread(p);
  Rng rng(w.opt.seed ^ 0x5e5e5e5eull ^ static_cast<uint64_t>(index));
  w.report_tids.add({static_cast<uintptr_t>(pthread_self()), 0}, rng);
  while (!w.stop.load() || w.workers_left.load() > 0) {
    p.call.store("aclrtProcessReport", std::memory_order_relaxed);
    aclError e = checked(p, "aclrtProcessReport", aclrtProcessReport(5));
    if (e != ACL_SUCCESS && e != ACL_ERROR_RT_REPORT_TIMEOUT)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  p.call.store("(done)");
  p.done.store(true);
}

}  // namespace

void run_report_server(int index, Progress &p) { report_server(index, p); }

}  // namespace fuzz

int main(int argc, char **argv) {
  using namespace fuzz;
  World &w = world();
  w.opt = parse(argc, argv);
  const char *kp = std::getenv("OPENACL_FUZZ_KERNELS");
  w.kernels_path = kp && *kp ? kp : OPENACL_FUZZ_KERNELS;
  std::fprintf(stderr,
               "[fuzz] seed=%llu threads=%d calls/thread=%llu seconds=%.0f race_safe=%d faults=%d "
               "finalize_every=%llu\n",
               static_cast<unsigned long long>(w.opt.seed), w.opt.threads,
               static_cast<unsigned long long>(w.opt.calls), w.opt.seconds, w.opt.race_safe,
               w.opt.faults, static_cast<unsigned long long>(w.opt.finalize_every));

  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(print_where);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, on_fatal_signal);
#endif

  // Progress records: fuzz threads, the canary, two report servers, and main (for the final
  // aclFinalize). Fixed before any thread starts, so the watchdog reads them without a lock;
  // never freed, so that the death callback can read them even after main returned (a leak
  // report at exit runs it).
  std::vector<Progress *> progress;
  auto make = [&](const std::string &name) -> Progress & {
    progress.push_back(new Progress());
    std::snprintf(progress.back()->name, sizeof progress.back()->name, "%s", name.c_str());
    w.progress.push_back(progress.back());
    return *progress.back();
  };
  for (int i = 0; i < w.opt.threads; ++i) make("fuzz" + std::to_string(i));
  Progress &canary = make("canary");
  Progress &rs0 = make("report0"), &rs1 = make("report1");
  Progress &main_p = make("main");

  main_p.call.store("aclInit");
  aclError e = checked(main_p, "aclInit", aclInit(nullptr));
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "[fuzz] aclInit failed: %d\n", e);
    return 1;
  }
  main_p.call.store("(waiting)");
  main_p.done.store(true);  // waits for the threads below; watched again for the last aclFinalize

  std::atomic<bool> finished{false};
  std::thread dog(watchdog, std::ref(finished));
  auto t0 = Clock::now();
  w.workers_left.store(w.opt.threads);
  std::vector<std::thread> servers;
  servers.emplace_back(run_report_server, 0, std::ref(rs0));
  servers.emplace_back(run_report_server, 1, std::ref(rs1));
  std::thread canary_thread(run_canary, std::ref(canary));
  std::vector<std::thread> workers;
  for (int i = 0; i < w.opt.threads; ++i)
    workers.emplace_back(run_worker, i, std::ref(*progress[i]));
  uint64_t worker_calls = 0;
  for (int i = 0; i < w.opt.threads; ++i) {
    workers[i].join();
    progress[i]->done.store(true);
    worker_calls += progress[i]->calls.load();
  }
  double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  w.stop.store(true);
  canary_thread.join();
  canary.done.store(true);
  for (auto &t : servers) t.join();
  rs0.done.store(true);
  rs1.done.store(true);

  // The runtime may be finalized at this point (a fuzz thread's last call); both are fine.
  main_p.call.store("aclFinalize");
  main_p.done.store(false);
  e = checked(main_p, "aclFinalize", aclFinalize());
  if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_FINALIZE && e != ACL_ERROR_UNINITIALIZE)
    violation("main", "aclFinalize", "final aclFinalize returned " + std::to_string(e));
  main_p.done.store(true);
  finished.store(true);
  dog.join();

  Stats &s = w.stats;
  if (s.canary_rounds.load() == 0) violation("main", "canary", "the canary verified no round");
  std::fprintf(
      stderr,
      "[fuzz] seed=%llu done: %llu fuzz calls (%llu in all) in %.1f s = %.0f calls/s; "
      "%llu failed as expected; %llu finalizes, %llu inits; canary %llu rounds verified, %llu "
      "void; "
      "%llu callbacks ran; %llu internal errors; %llu violations\n",
      static_cast<unsigned long long>(w.opt.seed), static_cast<unsigned long long>(worker_calls),
      static_cast<unsigned long long>(s.calls.load()), secs, worker_calls / std::max(secs, 1e-9),
      static_cast<unsigned long long>(s.failures.load()),
      static_cast<unsigned long long>(s.finalizes.load()),
      static_cast<unsigned long long>(s.inits.load()),
      static_cast<unsigned long long>(s.canary_rounds.load()),
      static_cast<unsigned long long>(s.canary_void.load()),
      static_cast<unsigned long long>(s.callbacks_run.load()),
      static_cast<unsigned long long>(s.internal_errors.load()),
      static_cast<unsigned long long>(s.violations.load()));
  if (w.opt.stats_s > 0) print_stats(secs);
  if (w.opt.verbose) print_per_api();
  return s.violations.load() == 0 ? 0 : 1;
}
