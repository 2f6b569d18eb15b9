// Object lifetimes under concurrency and faults in user code (docs/lifetimes.md): calls that
// race each other's teardown, aclFinalize racing submitters, and callbacks, host functions
// and kernels that throw. Each test is one of the defects found by the API-sequence fuzzer
// (tests/fuzz); the sanitizer runs of the test command turn a use-after-free into a failure.
#include <future>
#include <mutex>
#include <stdexcept>

#include "core/fixture.h"

namespace oat {
namespace {

constexpr size_t kBytes = 1 << 16;

bool all_bytes(const std::vector<uint8_t> &v, uint8_t value) {
  return std::all_of(v.begin(), v.end(), [&](uint8_t b) { return b == value; });
}

using Lifetime = RuntimeTest;

TEST_F(Lifetime, FreedMemoryOutlivesTasksQueuedOnAnotherDevicesStream) {
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));  // device 0
  void *host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, kBytes));
  aclrtContext ctx1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx1, 1));
  aclrtStream s = new_stream();
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemsetAsync(p, kBytes, 0x5a, kBytes, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(host, kBytes, p, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtFree(p));  // the memset and the copy are still queued behind the gate
  g.open();
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  auto *bytes = static_cast<uint8_t *>(host);
  EXPECT_TRUE(all_bytes(std::vector<uint8_t>(bytes, bytes + kBytes), 0x5a));
  ASSERT_ACL_OK(aclrtDestroyStream(s));
  ASSERT_ACL_OK(aclrtDestroyContext(ctx1));
  ASSERT_ACL_OK(aclrtFreeHost(host));
}

TEST_F(Lifetime, FreedMemoryOutlivesTasksOfAStreamBeingDestroyed) {
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  aclrtStream s = new_stream();
  Gate &g = block(s);
  ASSERT_ACL_OK(aclrtMemsetAsync(p, kBytes, 0x11, kBytes, s));
  std::promise<aclError> destroyed;
  std::thread destroyer([&] {
    aclrtSetCurrentContext(ctx);
    destroyed.set_value(aclrtDestroyStream(s));  // waits for the gate
  });
  // The stream's handle is gone as soon as the destroy has begun: from then on no context
  // lists the stream, but its tasks are still queued.
  int32_t status = 0;
  ASSERT_TRUE(wait_for([&] {
    return aclrtStreamQuery(s, reinterpret_cast<aclrtStreamStatus *>(&status)) != ACL_SUCCESS;
  }));
  ASSERT_ACL_OK(aclrtFree(p));
  g.open();
  destroyer.join();
  EXPECT_EQ(destroyed.get_future().get(), ACL_SUCCESS);
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
}

TEST_F(Lifetime, SynchronizeDeviceAndMallocRaceContextsBeingCreatedAndDestroyed) {
  std::atomic<bool> done{false};
  std::mutex mu;
  std::vector<std::string> failures;
  auto ok = [&](aclError e) {
    if (e == ACL_SUCCESS) return true;
    std::lock_guard lock(mu);
    failures.push_back(std::to_string(e) + " " + recent_msg());
    return false;
  };
  std::atomic<int> syncs{0};
  std::thread churn([&] {
    for (int i = 0; i < 500 || syncs < 200;
         ++i) {  // overlaps the syncs, however they are scheduled
      aclrtContext c = nullptr;
      if (ok(aclrtCreateContext(&c, 0))) ok(aclrtDestroyContext(c));
    }
    done = true;
  });
  std::thread allocator([&] {
    ok(aclrtSetDevice(0));
    while (!done) {
      void *p = nullptr;
      if (ok(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST))) ok(aclrtFree(p));
    }
    ok(aclrtResetDevice(0));
  });
  for (; !done; ++syncs) ok(aclrtSynchronizeDevice());
  churn.join();
  allocator.join();
  EXPECT_TRUE(failures.empty()) << failures.size()
                                << " calls failed, the first: " << failures.front();
  EXPECT_GE(syncs.load(), 200);
}

// Submits memset + copy-back rounds on its own context until a call fails; checks each
// round's result. Records the first failure code.
struct Submitter {
  std::atomic<int> rounds{0};
  std::atomic<aclError> stopped_by{ACL_SUCCESS};
  std::atomic<bool> wrong_result{false};
  std::thread thread;

  void start(int32_t device) {
    thread = std::thread([this, device] {
      aclrtContext ctx = nullptr;
      void *p = nullptr;
      aclrtStream s = nullptr;
      aclError e = aclrtCreateContext(&ctx, device);
      if (e == ACL_SUCCESS) e = aclrtCreateStream(&s);
      if (e == ACL_SUCCESS) e = aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST);
      std::vector<uint8_t> back(kBytes);
      for (uint8_t v = 1; e == ACL_SUCCESS; ++v) {
        e = aclrtMemsetAsync(p, kBytes, v, kBytes, s);
        if (e == ACL_SUCCESS) e = aclrtSynchronizeStream(s);
        if (e == ACL_SUCCESS)
          e = aclrtMemcpy(back.data(), kBytes, p, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
        if (e == ACL_SUCCESS && !all_bytes(back, v)) wrong_result = true;
        if (e == ACL_SUCCESS) ++rounds;
      }
      stopped_by = e;
    });
  }
};

using FinalizeRace = BareRuntimeTest;

TEST_F(FinalizeRace, CallsRacingFinalizeCompleteOrSeeItUninitialized) {
  ASSERT_ACL_OK(aclInit(nullptr));
  Submitter submitters[4];
  for (int i = 0; i < 4; ++i) submitters[i].start(i % 2);
  for (auto &s : submitters)
    ASSERT_TRUE(wait_for([&] { return s.rounds.load() >= 20; }, std::chrono::seconds(30)));
  // Finalize must not be starved by the submitters: it closes the runtime to them first.
  auto finalized = std::async(std::launch::async, [] { return aclFinalize(); });
  ASSERT_EQ(finalized.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "aclFinalize hangs";
  EXPECT_EQ(finalized.get(), ACL_SUCCESS) << recent_msg();
  for (auto &s : submitters) {
    s.thread.join();
    EXPECT_EQ(s.stopped_by.load(), ACL_ERROR_UNINITIALIZE);
    EXPECT_FALSE(s.wrong_result.load());
  }
  // The runtime initializes again and works.
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  void *p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(p));
}

TEST_F(FinalizeRace, FinalizeWakesAThreadWaitingForReports) {
  ASSERT_ACL_OK(aclInit(nullptr));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  std::atomic<uint64_t> tid{0};
  std::atomic<bool> subscribed{false};
  std::promise<aclError> processed;
  std::thread waiter([&] {
    tid = static_cast<uint64_t>(pthread_self());
    wait_for([&] { return subscribed.load(); });
    processed.set_value(aclrtProcessReport(-1));  // no callback ever comes
  });
  ASSERT_TRUE(wait_for([&] { return tid.load() != 0; }));
  ASSERT_ACL_OK(aclrtSubscribeReport(tid, s));
  subscribed = true;
  auto finalized = std::async(std::launch::async, [] { return aclFinalize(); });
  ASSERT_EQ(finalized.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "aclFinalize hangs";
  EXPECT_EQ(finalized.get(), ACL_SUCCESS);
  waiter.join();
  EXPECT_EQ(processed.get_future().get(), ACL_ERROR_UNINITIALIZE);
}

void throw_runtime_error(void *) { throw std::runtime_error("oat: the callback's own error"); }
void throw_int(void *) { throw 42; }

TEST_F(Lifetime, ACallbackThatThrowsFailsItsStreamAndReleasesIt) {
  for (aclrtCallbackBlockType block : {ACL_CALLBACK_BLOCK, ACL_CALLBACK_NO_BLOCK}) {
    aclrtStream s = new_stream();
    ReportThread reports;
    ASSERT_ACL_OK(aclrtSubscribeReport(reports.id(), s));
    reports.serve();
    ASSERT_ACL_OK(aclrtLaunchCallback(throw_runtime_error, nullptr, block, s));
    int32_t after = 0;
    ASSERT_ACL_OK(mark(&after, 1, s));
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, 10000), ACL_ERROR_RT_AICORE_EXCEPTION)
        << recent_msg();
    EXPECT_NE(recent_msg().find("oat: the callback's own error"), std::string::npos)
        << recent_msg();
    if (block == ACL_CALLBACK_BLOCK) EXPECT_EQ(load(after), 0);  // held, then skipped (R20)
    ASSERT_TRUE(wait_for([&] { return reports.last_error() == ACL_ERROR_RT_AICORE_EXCEPTION; }));
    ASSERT_ACL_OK(aclrtUnSubscribeReport(reports.id(), s));
    reports.stop();
    ASSERT_ACL_OK(aclrtDestroyStream(s));
  }
}

int exception_callbacks = 0;
void throwing_exception_callback(aclrtExceptionInfo *) {
  ++exception_callbacks;
  throw 7;
}

TEST_F(Lifetime, UserCodeThatThrowsAnythingFailsItsStreamNotTheProcess) {
  aclrtFuncHandle throw_int_kernel = nullptr, throw_std_kernel = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(kernels_.binary(), "oat_throw_int", &throw_int_kernel));
  ASSERT_ACL_OK(aclrtBinaryGetFunction(kernels_.binary(), "oat_throw_std", &throw_std_kernel));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(throwing_exception_callback));
  struct Case {
    std::function<aclError(aclrtStream)> launch;
    const char *message;
  };
  const Case cases[] = {
      {[](aclrtStream s) { return aclrtLaunchHostFunc(s, throw_int, nullptr); },
       "not a std::exception"},
      {[](aclrtStream s) { return aclrtLaunchHostFunc(s, throw_runtime_error, nullptr); },
       "the callback's own error"},
      {[&](aclrtStream s) { return aclrtLaunchKernel(throw_int_kernel, 4, nullptr, 0, s); },
       "not a std::exception"},
      {[&](aclrtStream s) { return aclrtLaunchKernel(throw_std_kernel, 2, nullptr, 0, s); },
       "oat_throw_std: bad block"},
  };
  for (const Case &c : cases) {
    aclrtStream s = new_stream();
    ASSERT_ACL_OK(c.launch(s));
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_NE(recent_msg().find(c.message), std::string::npos) << recent_msg();
    ASSERT_ACL_OK(aclrtDestroyStream(s));
  }
  EXPECT_EQ(exception_callbacks, 4);
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(throwing_exception_callback));
}

}  // namespace
}  // namespace oat
