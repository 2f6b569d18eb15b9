// The object families: lifecycle and devices, contexts, streams, events, notifies, callbacks
// and kernels.
#include <algorithm>
#include <cstring>

#include "worker.h"

namespace fuzz {

void Worker::op_lifecycle(uint64_t r) {
  switch (r % 8) {
    case 0:
      maybe_finalize();
      break;
    case 1:
      reinit();
      break;
    case 2:
    case 3: {
      int32_t d = device_id();
      if (call("aclrtSetDevice", [&] { return aclrtSetDevice(d); }) == ACL_SUCCESS) learn_context();
      break;
    }
    case 4: {
      int32_t d = device_id();
      if (rng_.chance(0.15))
        call("aclrtResetDeviceForce", [&] { return aclrtResetDeviceForce(d); });
      else call("aclrtResetDevice", [&] { return aclrtResetDevice(d); });
      break;
    }
    case 5:
      call("aclrtSynchronizeDevice", [] { return aclrtSynchronizeDevice(); });
      break;
    case 6: {
      int32_t t = timeout_ms();
      call("aclrtSynchronizeDeviceWithTimeout",
           [&] { return aclrtSynchronizeDeviceWithTimeout(t); });
      break;
    }
    default: {
      int32_t d = -1;
      call("aclrtGetDevice", [&] { return aclrtGetDevice(rng_.chance(0.1) ? nullptr : &d); });
      const char *m = aclGetRecentErrMsg();  // any thread, any time: a readable string
      if (m != nullptr) (void)std::strlen(m);
      break;
    }
  }
}

void Worker::op_context(uint64_t r) {
  switch (r % 6) {
    case 0: {
      aclrtContext c = nullptr;
      int32_t d = device_id();
      bool null_out = rng_.chance(0.05);
      if (call("aclrtCreateContext",
               [&] { return aclrtCreateContext(null_out ? nullptr : &c, d); }) == ACL_SUCCESS) {
        w_.stats.live_contexts.fetch_add(1);
        if (!null_out) context_ = reinterpret_cast<uintptr_t>(c);
        add(w_.contexts, reinterpret_cast<uintptr_t>(c));
      }
      break;
    }
    case 1: {
      void *c = handle(w_.contexts);
      if (call("aclrtDestroyContext", [&] { return aclrtDestroyContext(c); }) == ACL_SUCCESS)
        w_.stats.live_contexts.fetch_sub(1);
      break;
    }
    case 2:
    case 3: {
      void *c = handle(w_.contexts, 0.03);
      if (call("aclrtSetCurrentContext", [&] { return aclrtSetCurrentContext(c); }) == ACL_SUCCESS)
        context_ = reinterpret_cast<uintptr_t>(c);
      break;
    }
    case 4: {
      aclrtContext c = nullptr;
      bool null_out = rng_.chance(0.05);
      if (call("aclrtGetCurrentContext",
               [&] { return aclrtGetCurrentContext(null_out ? nullptr : &c); }) == ACL_SUCCESS &&
          rng_.chance(0.2))
        add(w_.contexts, reinterpret_cast<uintptr_t>(c));  // default contexts join the pool too
      break;
    }
    default: {
      aclrtStream s = nullptr;
      if (call("aclrtCtxGetCurrentDefaultStream",
               [&] { return aclrtCtxGetCurrentDefaultStream(&s); }) == ACL_SUCCESS &&
          rng_.chance(0.2))
        add(w_.streams, reinterpret_cast<uintptr_t>(s));
      break;
    }
  }
}

void Worker::op_stream(uint64_t r) {
  switch (r % 9) {
    case 0:
    case 1: {
      aclrtStream s = nullptr;
      aclError e;
      if (r % 9 == 0) {
        e = call("aclrtCreateStream",
                 [&] { return aclrtCreateStream(rng_.chance(0.03) ? nullptr : &s); });
      } else {
        uint32_t prio = static_cast<uint32_t>(rng_.below(8)), flag = 0;
        static const uint32_t flags[] = {0,
                                         ACL_STREAM_FAST_LAUNCH,
                                         ACL_STREAM_FAST_SYNC,
                                         ACL_STREAM_HUGE,
                                         ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC,
                                         0x80000000u};
        flag = flags[rng_.below(6)];
        e = call("aclrtCreateStreamWithConfig",
                 [&] { return aclrtCreateStreamWithConfig(&s, prio, flag); });
      }
      if (e == ACL_SUCCESS) {
        w_.stats.live_streams.fetch_add(1);
        created(w_.streams, s);
      }
      break;
    }
    case 2: {
      void *s = stream();
      bool force = rng_.chance(0.3);
      aclError e = force
                       ? call("aclrtDestroyStreamForce", [&] { return aclrtDestroyStreamForce(s); })
                       : call("aclrtDestroyStream", [&] { return aclrtDestroyStream(s); });
      if (e == ACL_SUCCESS) w_.stats.live_streams.fetch_sub(1);
      break;
    }
    case 3:
    case 4: {
      void *s = stream();
      call("aclrtSynchronizeStream", [&] { return aclrtSynchronizeStream(s); });
      break;
    }
    case 5: {
      void *s = stream();
      int32_t t = timeout_ms();
      call("aclrtSynchronizeStreamWithTimeout",
           [&] { return aclrtSynchronizeStreamWithTimeout(s, t); });
      break;
    }
    case 6: {
      void *s = stream();
      aclrtStreamStatus st;
      bool null_out = rng_.chance(0.05);
      call("aclrtStreamQuery", [&] { return aclrtStreamQuery(s, null_out ? nullptr : &st); });
      break;
    }
    default: {
      void *s = stream();
      void *e = handle(w_.events);
      call("aclrtStreamWaitEvent", [&] { return aclrtStreamWaitEvent(s, e); });
      break;
    }
  }
}

void Worker::op_event(uint64_t r) {
  switch (r % 11) {
    case 0:
    case 1: {
      aclrtEvent e = nullptr;
      aclError ret;
      if (r % 11 == 0) {
        ret = call("aclrtCreateEvent", [&] { return aclrtCreateEvent(&e); });
      } else {
        static const uint32_t flags[] = {ACL_EVENT_SYNC,
                                         ACL_EVENT_TIME_LINE,
                                         ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE,
                                         ACL_EVENT_CAPTURE_STREAM_PROGRESS,
                                         0,
                                         0x1000};
        uint32_t f = flags[rng_.below(6)];
        ret = call("aclrtCreateEventWithFlag", [&] { return aclrtCreateEventWithFlag(&e, f); });
      }
      if (ret == ACL_SUCCESS) {
        w_.stats.live_events.fetch_add(1);
        created(w_.events, e);
      }
      break;
    }
    case 2:
    case 3: {
      void *e = handle(w_.events), *s = stream();
      call("aclrtRecordEvent", [&] { return aclrtRecordEvent(e, s); });
      break;
    }
    case 4: {
      void *e = handle(w_.events), *s = stream();
      call("aclrtResetEvent", [&] { return aclrtResetEvent(e, s); });
      break;
    }
    case 5: {
      void *e = handle(w_.events);
      aclrtEventRecordedStatus st;
      bool null_out = rng_.chance(0.05);
      call("aclrtQueryEventStatus",
           [&] { return aclrtQueryEventStatus(e, null_out ? nullptr : &st); });
      break;
    }
    case 6: {
      void *e = handle(w_.events);
      call("aclrtSynchronizeEvent", [&] { return aclrtSynchronizeEvent(e); });
      break;
    }
    case 7: {
      void *e = handle(w_.events);
      int32_t t = timeout_ms();
      call("aclrtSynchronizeEventWithTimeout",
           [&] { return aclrtSynchronizeEventWithTimeout(e, t); });
      break;
    }
    case 8: {
      void *a = handle(w_.events), *b = handle(w_.events);
      float ms = 0;
      bool null_out = rng_.chance(0.05);
      call("aclrtEventElapsedTime",
           [&] { return aclrtEventElapsedTime(null_out ? nullptr : &ms, a, b); });
      break;
    }
    case 9: {
      void *s = stream(), *e = handle(w_.events);
      call("aclrtStreamWaitEvent", [&] { return aclrtStreamWaitEvent(s, e); });
      break;
    }
    default: {
      void *e = handle(w_.events);
      if (call("aclrtDestroyEvent", [&] { return aclrtDestroyEvent(e); }) == ACL_SUCCESS)
        w_.stats.live_events.fetch_sub(1);
      break;
    }
  }
}

void Worker::op_notify(uint64_t r) {
  switch (r % 4) {
    case 0: {
      aclrtNotify n = nullptr;
      uint64_t flag = rng_.chance(0.9) ? ACL_NOTIFY_DEFAULT : 7;
      if (call("aclrtCreateNotify", [&] { return aclrtCreateNotify(&n, flag); }) == ACL_SUCCESS)
        created(w_.notifies, n);
      break;
    }
    case 1: {
      void *n = handle(w_.notifies), *s = stream();
      call("aclrtRecordNotify", [&] { return aclrtRecordNotify(n, s); });
      break;
    }
    case 2: {
      // A wait on a random notify holds its stream for the whole timeout (1 s, the least) when
      // no record comes, or another stream's wait took the record first: rare here. The
      // scenarios (op_scenario) wait on fresh notifies. timeout 0 would wait forever: a
      // program's deadlock, not the runtime's.
      void *n = handle(w_.notifies), *s = stream();
      if (call("aclrtRecordNotify", [&] { return aclrtRecordNotify(n, s); }) == ACL_SUCCESS &&
          rng_.chance(0.05))
        call("aclrtWaitAndResetNotify", [&] { return aclrtWaitAndResetNotify(n, s, 1); });
      break;
    }
    default: {
      void *n = handle(w_.notifies);
      call("aclrtDestroyNotify", [&] { return aclrtDestroyNotify(n); });
      break;
    }
  }
}

void Worker::op_callback(uint64_t r) {
  switch (r % 6) {
    case 0: {
      // Only to a report server's thread: a stream subscribed to a thread that never calls
      // aclrtProcessReport keeps its callbacks, and every synchronize of it, waiting forever, as
      // on CANN. The servers register as they start, so at first there may be none (the thread
      // id 0 used then hung the fuzzer about once in 30 runs on a busy machine).
      Entry t;
      if (!w_.report_tids.pick(rng_, &t)) break;
      void *s = stream();
      call("aclrtSubscribeReport", [&] { return aclrtSubscribeReport(t.value, s); });
      break;
    }
    case 1:
    case 2: {
      void *s = stream();
      auto block = rng_.chance(0.5) ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK;
      void *data = &g_callback_data[rng_.below(16)];
      aclrtCallback fn = rng_.chance(0.03) ? nullptr : fuzz_callback;
      call("aclrtLaunchCallback", [&] { return aclrtLaunchCallback(fn, data, block, s); });
      break;
    }
    case 3: {
      // No stream is subscribed to this thread: the call fails or times out at once.
      int32_t t = static_cast<int32_t>(rng_.below(3));
      call("aclrtProcessReport", [&] { return aclrtProcessReport(t); });
      break;
    }
    case 4: {
      Entry t;
      uint64_t tid = w_.report_tids.pick(rng_, &t) && rng_.chance(0.9) ? t.value : rng_.next();
      void *s = stream();
      call("aclrtUnSubscribeReport", [&] { return aclrtUnSubscribeReport(tid, s); });
      break;
    }
    default: {
      void *s = stream();
      void *data = &g_callback_data[rng_.below(16)];
      aclrtHostFunc fn = rng_.chance(0.03) ? nullptr : fuzz_host_func;
      call("aclrtLaunchHostFunc", [&] { return aclrtLaunchHostFunc(s, fn, data); });
      break;
    }
  }
}

void Worker::op_kernel(uint64_t r) {
  switch (r % 8) {
    case 0: {
      if (!rng_.chance(0.3)) break;  // dlopen is slow; a few binaries suffice
      aclrtBinHandle b = nullptr;
      const char *path =
          rng_.chance(0.9) ? w_.kernels_path.c_str() : "/nonexistent/fuzz_kernels.so";
      if (call("aclrtBinaryLoadFromFile",
               [&] { return aclrtBinaryLoadFromFile(path, nullptr, &b); }) == ACL_SUCCESS)
        add(w_.binaries, reinterpret_cast<uintptr_t>(b));
      break;
    }
    case 1: {
      void *b = handle(w_.binaries);
      size_t k = rng_.below(kKernels + 1);
      const char *name = k < kKernels ? kKernelNames[k] : "oat_no_such_kernel";
      aclrtFuncHandle f = nullptr;
      if (call("aclrtBinaryGetFunction", [&] { return aclrtBinaryGetFunction(b, name, &f); }) ==
              ACL_SUCCESS &&
          k < kKernels)
        add(w_.funcs, reinterpret_cast<uintptr_t>(f), k);
      break;
    }
    case 2: {
      if (!rng_.chance(0.1)) break;
      void *b = handle(w_.binaries);
      call("aclrtBinaryUnLoad", [&] { return aclrtBinaryUnLoad(b); });
      break;
    }
    default: {
      Entry f;
      bool real = w_.funcs.pick(rng_, &f) && rng_.chance(0.95);
      // A made-up function handle must be rejected whatever the args; a real one gets the
      // argument block its kernel expects (the runtime cannot check a kernel's arguments).
      union {
        OatStore store;
        OatAppend append;
        OatSpin spin;
        OatFail fail;
        unsigned char raw[128];
      } args{};
      size_t size = sizeof args.raw;
      size_t k = real ? f.size : kKernels;
      switch (k) {
        case kStore:
          args.store = {&g_sink[rng_.below(64)], static_cast<int32_t>(rng_.next())};
          size = sizeof(OatStore);
          break;
        case kAppend:
          args.append = {nullptr, &g_count[rng_.below(64)], 0, 1};
          size = sizeof(OatAppend);
          break;
        case kSpin:
          args.spin = {rng_.below(50)};
          size = sizeof(OatSpin);
          break;
        case kFail: {
          uint32_t block = w_.opt.faults && rng_.chance(0.3) ? 0 : 1000000;  // block 0 fails
          args.fail = {block, &g_ran};
          size = sizeof(OatFail);
          break;
        }
        default:
          break;
      }
      if (rng_.chance(0.1)) size = sizeof args.raw;  // longer than needed: allowed
      uint32_t blocks = rng_.chance(0.05) ? 0 : 1 + static_cast<uint32_t>(rng_.below(8));
      void *fn = real ? reinterpret_cast<void *>(f.value)
                      : reinterpret_cast<void *>(rng_.chance(0.3) ? 0 : garbage());
      void *s = stream();
      const void *a = !real && rng_.chance(0.2) ? nullptr : &args;
      call("aclrtLaunchKernel", [&] { return aclrtLaunchKernel(fn, blocks, a, size, s); });
      break;
    }
  }
}

}  // namespace fuzz
