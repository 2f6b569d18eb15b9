// Scenarios: short correct sequences among the random calls.
#include <algorithm>
#include <cstring>

#include "worker.h"

namespace fuzz {

// Short correct sequences on this thread's own objects, so that the deeper paths run too
// (timed events, callbacks on subscribed streams, notify and event waits between streams),
// while everything around them is random.
void Worker::op_scenario(uint64_t r) {
  void *s = mine(w_.streams);
  if (s == nullptr) {
    aclrtStream ns = nullptr;
    if (call("aclrtCreateStream", [&] { return aclrtCreateStream(&ns); }) != ACL_SUCCESS) return;
    w_.stats.live_streams.fetch_add(1);
    created(w_.streams, ns);
    s = ns;
  }
  auto spin = [&](void *st) {
    for (int i = 0; i < 3; ++i) {
      Entry f;
      if (w_.funcs.pick(rng_, &f) && f.size == kSpin) {
        OatSpin a{rng_.below(100)};
        call("aclrtLaunchKernel", [&] {
          return aclrtLaunchKernel(reinterpret_cast<void *>(f.value), 1, &a, sizeof a, st);
        });
        return;
      }
    }
  };
  switch (r % 4) {
    case 0: {  // elapsed time between two records
      aclrtEvent a = nullptr, b = nullptr;
      if (call("aclrtCreateEventWithFlag",
               [&] { return aclrtCreateEventWithFlag(&a, ACL_EVENT_TIME_LINE); }) != ACL_SUCCESS)
        return;
      created(w_.events, a);
      if (call("aclrtCreateEventWithFlag",
               [&] { return aclrtCreateEventWithFlag(&b, ACL_EVENT_TIME_LINE); }) != ACL_SUCCESS)
        return;
      created(w_.events, b);
      w_.stats.live_events.fetch_add(2);
      call("aclrtRecordEvent", [&] { return aclrtRecordEvent(a, s); });
      spin(s);
      call("aclrtRecordEvent", [&] { return aclrtRecordEvent(b, s); });
      call("aclrtSynchronizeEvent", [&] { return aclrtSynchronizeEvent(b); });
      float ms = 0;
      call("aclrtEventElapsedTime", [&] { return aclrtEventElapsedTime(&ms, a, b); });
      break;
    }
    case 1: {  // callbacks on a subscribed stream
      Entry t;
      if (!w_.report_tids.pick(rng_, &t)) return;
      call("aclrtSubscribeReport", [&] { return aclrtSubscribeReport(t.value, s); });
      for (uint64_t i = 0, n = 1 + rng_.below(3); i < n; ++i) {
        auto block = rng_.chance(0.5) ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK;
        void *data = &g_callback_data[rng_.below(16)];
        call("aclrtLaunchCallback",
             [&] { return aclrtLaunchCallback(fuzz_callback, data, block, s); });
      }
      if (rng_.chance(0.5))
        call("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(s); });
      if (rng_.chance(0.5))
        call("aclrtUnSubscribeReport", [&] { return aclrtUnSubscribeReport(t.value, s); });
      break;
    }
    case 2: {  // a notify from one stream to another
      aclrtNotify n = nullptr;
      aclrtStream s2 = nullptr;
      if (call("aclrtCreateNotify", [&] { return aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT); }) !=
          ACL_SUCCESS)
        return;
      if (call("aclrtCreateStream", [&] { return aclrtCreateStream(&s2); }) == ACL_SUCCESS) {
        w_.stats.live_streams.fetch_add(1);
        created(w_.streams, s2);
        spin(s);
        // s may be of another context than this thread believes (another thread reset the
        // device or destroyed the context): then no record, and no wait.
        if (call("aclrtRecordNotify", [&] { return aclrtRecordNotify(n, s); }) == ACL_SUCCESS) {
          call("aclrtWaitAndResetNotify", [&] { return aclrtWaitAndResetNotify(n, s2, 1); });
          call("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(s2); });
        }
      }
      created(w_.notifies, n);  // published only now: no other stream takes its record first
      break;
    }
    default: {  // an event wait between two streams, and host functions on both
      void *e = mine(w_.events);
      void *s2 = mine(w_.streams);
      if (e == nullptr || s2 == nullptr) return;
      spin(s);
      call("aclrtLaunchHostFunc",
           [&] { return aclrtLaunchHostFunc(s, fuzz_host_func, &g_callback_data[0]); });
      call("aclrtRecordEvent", [&] { return aclrtRecordEvent(e, s); });
      call("aclrtStreamWaitEvent", [&] { return aclrtStreamWaitEvent(s2, e); });
      call("aclrtLaunchHostFunc",
           [&] { return aclrtLaunchHostFunc(s2, fuzz_host_func, &g_callback_data[1]); });
      aclrtEventRecordedStatus st;
      call("aclrtQueryEventStatus", [&] { return aclrtQueryEventStatus(e, &st); });
      call("aclrtSynchronizeStreamWithTimeout",
           [&] { return aclrtSynchronizeStreamWithTimeout(s2, 1000); });
      break;
    }
  }
}

}  // namespace fuzz
