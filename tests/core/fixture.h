// Shared helpers of the core suite: a fixture that gives each test a fresh runtime, the test
// kernels (tests/core/kernels), host-side gates that hold a stream until the test releases
// them, and assertions on aclError codes and aclGetRecentErrMsg.
#pragma once

#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "core/kernels/kernel_args.h"

namespace oat {

inline std::string recent_msg() {
  const char *m = aclGetRecentErrMsg();
  return m ? std::string(m) : std::string();
}

// The API name of a call expression such as "aclrtMemcpy(dst, ...)".
inline std::string api_name(const char *expr) {
  std::string s(expr);
  auto paren = s.find('(');
  return paren == std::string::npos ? s : s.substr(0, paren);
}

inline ::testing::AssertionResult fails_with(const char *expr, aclError got, aclError want) {
  std::string msg = recent_msg();
  if (got != want)
    return ::testing::AssertionFailure() << expr << " returned " << got << ", expected " << want
                                         << " (recent message: \"" << msg << "\")";
  if (msg.empty())
    return ::testing::AssertionFailure()
           << expr << " returned " << got << " but aclGetRecentErrMsg() is empty";
  std::string api = api_name(expr);
  if (msg.find(api) == std::string::npos)
    return ::testing::AssertionFailure()
           << expr << ": recent message \"" << msg << "\" does not name the call " << api;
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult fails_somehow(const char *expr, aclError got) {
  std::string msg = recent_msg();
  if (got == ACL_SUCCESS)
    return ::testing::AssertionFailure() << expr << " succeeded; expected an error";
  if (msg.empty())
    return ::testing::AssertionFailure()
           << expr << " returned " << got << " but aclGetRecentErrMsg() is empty";
  return ::testing::AssertionSuccess();
}

// Polls a host-visible flag set by a kernel or callback, at most timeout; returns whether it
// was set. This waits for an observable state, it does not stand in for synchronization.
inline bool wait_for(const std::function<bool()> &ready,
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!ready()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

inline int32_t load(const int32_t &v) { return __atomic_load_n(&v, __ATOMIC_ACQUIRE); }
inline void store(int32_t &v, int32_t x) { __atomic_store_n(&v, x, __ATOMIC_RELEASE); }

// The number of AI cores (worker threads) of device `dev`.
inline int64_t ai_cores(int32_t dev) {
  int64_t v = 0;
  if (aclrtGetDeviceInfo(static_cast<uint32_t>(dev), ACL_DEV_ATTR_AICORE_CORE_NUM, &v) ==
          ACL_SUCCESS &&
      v > 0)
    return v;
  return std::max(1u, std::thread::hardware_concurrency());
}

// A gate kernel's state, owned by the test; the kernel holds its stream until open().
struct Gate {
  OatGate g{};
  explicit Gate(int32_t timeout_ms) { g.timeout_ms = timeout_ms; }
  void open() { store(g.open, 1); }
  bool started() const { return load(g.started) != 0; }
  bool finished() const { return load(g.finished) != 0; }
  bool timed_out() const { return load(g.timed_out) != 0; }
  bool wait_started() const {
    return wait_for([this] { return started(); });
  }
  bool wait_finished() const {
    return wait_for([this] { return finished() || timed_out(); });
  }
};

// The test kernel library, loaded through the public binary API.
class Kernels {
 public:
  aclError load() {
    aclError e = aclrtBinaryLoadFromFile(OPENACL_TEST_KERNELS, nullptr, &bin_);
    if (e != ACL_SUCCESS) return e;
    for (const char *name :
         {"oat_gate", "oat_store", "oat_append", "oat_rendezvous", "oat_barrier", "oat_block_ids",
          "oat_vadd", "oat_echo", "oat_fail", "oat_spin", "oat_occupancy"}) {
      aclrtFuncHandle f = nullptr;
      e = aclrtBinaryGetFunction(bin_, name, &f);
      if (e != ACL_SUCCESS) return e;
      funcs_.emplace_back(name, f);
    }
    return ACL_SUCCESS;
  }
  aclrtBinHandle binary() const { return bin_; }
  aclrtFuncHandle operator[](const std::string &name) const {
    for (auto &[n, f] : funcs_)
      if (n == name) return f;
    return nullptr;
  }
  template <class Args>
  aclError launch(const std::string &name, const Args &args, aclrtStream s,
                  uint32_t blocks = 1) const {
    return aclrtLaunchKernel((*this)[name], blocks, &args, sizeof(args), s);
  }

 private:
  aclrtBinHandle bin_ = nullptr;
  std::vector<std::pair<std::string, aclrtFuncHandle>> funcs_;
};

// Uninitialized runtime: for tests of aclInit/aclFinalize themselves. TearDown finalizes if
// the test left the runtime initialized.
class BareRuntimeTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (auto &g : gates_) g->open();
    aclFinalize();
  }
  Gate &make_gate(int32_t timeout_ms = 5000) {
    gates_.push_back(std::make_unique<Gate>(timeout_ms));
    return *gates_.back();
  }
  std::deque<std::unique_ptr<Gate>> gates_;
};

// A fresh runtime per test: aclInit(NULL), device 0 set on the test thread, test kernels
// loaded. Gates still closed at TearDown are opened so that aclFinalize never waits on them.
class RuntimeTest : public BareRuntimeTest {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << recent_msg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << recent_msg();
    ASSERT_EQ(kernels_.load(), ACL_SUCCESS) << recent_msg();
  }

  aclrtStream new_stream() {
    aclrtStream s = nullptr;
    EXPECT_EQ(aclrtCreateStream(&s), ACL_SUCCESS) << recent_msg();
    return s;
  }
  // Holds `s` until the returned gate is opened.
  Gate &block(aclrtStream s, int32_t timeout_ms = 5000) {
    Gate &g = make_gate(timeout_ms);
    OatGate *p = &g.g;
    EXPECT_EQ(kernels_.launch("oat_gate", p, s), ACL_SUCCESS) << recent_msg();
    return g;
  }
  aclError mark(int32_t *p, int32_t value, aclrtStream s) {
    OatStore a{p, value};
    return kernels_.launch("oat_store", a, s);
  }
  aclError append(int32_t *log, int32_t *count, int32_t capacity, int32_t value, aclrtStream s) {
    OatAppend a{log, count, capacity, value};
    return kernels_.launch("oat_append", a, s);
  }

  Kernels kernels_;
};

// A host thread serving aclrtProcessReport for the callbacks of subscribed streams (R15):
// construct, subscribe streams with id(), then serve(); stop() (or the destructor) ends it.
class ReportThread {
 public:
  // process: aclrtProcessReport, or aclrtProcessHostFunc for a host-function thread.
  explicit ReportThread(aclError (*process)(int32_t) = aclrtProcessReport) {
    thread_ = std::thread([this, process] {
      tid_.store(static_cast<uint64_t>(pthread_self()));
      ready_.store(true);
      wait_for([this] { return go_.load() || stop_.load(); }, std::chrono::milliseconds(60000));
      while (!stop_.load()) {
        aclError e = process(20);
        if (e == ACL_ERROR_RT_THREAD_SUBSCRIBE) break;  // unsubscribed: nothing left to serve
        if (e != ACL_SUCCESS && e != ACL_ERROR_RT_REPORT_TIMEOUT) last_error_.store(e);
      }
    });
    wait_for([this] { return ready_.load(); });
  }
  ~ReportThread() { stop(); }
  void serve() { go_.store(true); }
  void stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
  }
  uint64_t id() const { return tid_.load(); }
  aclError last_error() const { return last_error_.load(); }

 private:
  std::atomic<bool> stop_{false}, ready_{false}, go_{false};
  std::atomic<uint64_t> tid_{0};
  std::atomic<aclError> last_error_{ACL_SUCCESS};
  std::thread thread_;
};

}  // namespace oat

#define EXPECT_ACL_OK(call) EXPECT_EQ((call), ACL_SUCCESS) << #call << ": " << ::oat::recent_msg()
#define ASSERT_ACL_OK(call) ASSERT_EQ((call), ACL_SUCCESS) << #call << ": " << ::oat::recent_msg()
// The call fails with exactly `code`, leaving a recent error message that names the call.
#define EXPECT_ACL_ERROR(code, call) EXPECT_TRUE(::oat::fails_with(#call, (call), (code)))
// The call fails (the reference names no exact code), leaving a recent error message.
#define EXPECT_ACL_FAILS(call) EXPECT_TRUE(::oat::fails_somehow(#call, (call)))
