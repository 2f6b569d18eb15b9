// Small AscendCL programs for the checker suite (check_test.cpp runs each as a child process
// with OPENACL_CHECK / OPENACL_TRACE set). Each bug_* case has exactly one ordering bug (a
// missing wait, an early host access, an early free, a leak, the default context through
// get/set); each ok_* case is its correct twin and must draw no report. The program prints the
// handles it created on stdout ("s1=0x..."), so the test can find them in the reports.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>

#include "acl/acl.h"

#ifndef CHECK_KERNELS
#error CHECK_KERNELS must name the kernel library
#endif

#define NOINLINE extern "C" __attribute__((noinline))

void ok(aclError e, const char *what, int line) {
  if (e != ACL_SUCCESS) {
    std::fprintf(stderr, "cases: %s failed with %d at line %d: %s\n", what, e, line,
                 aclGetRecentErrMsg());
    std::exit(2);
  }
}
#define OK(call) ok((call), #call, __LINE__)

constexpr size_t kBytes = 4096;

struct ChkArgs {
  int32_t *dst;
  const int32_t *src;
  int32_t n;
  int32_t value;
};

// aclInit (with $CHECK_ACL_JSON as its config, if set) + aclrtSetDevice(0); at the end
// aclrtResetDevice (unless the case leaks objects that the reset would release) and aclFinalize.
struct Runtime {
  bool reset = true;
  Runtime() {
    OK(aclInit(std::getenv("CHECK_ACL_JSON")));
    OK(aclrtSetDevice(0));
  }
  ~Runtime() {
    if (reset) OK(aclrtResetDevice(0));
    OK(aclFinalize());
  }
};

aclrtStream stream(const char *name) {
  aclrtStream s = nullptr;
  OK(aclrtCreateStream(&s));
  std::printf("%s=%p\n", name, s);
  return s;
}

void *device_buffer() {
  void *p = nullptr;
  OK(aclrtMalloc(&p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  return p;
}

void *pinned_buffer() {
  void *p = nullptr;
  OK(aclrtMallocHost(&p, kBytes));
  return p;
}

// --- a missing aclrtStreamWaitEvent ---------------------------------------------------------

// dev: the device memory both streams use (null: a fresh aclrtMalloc buffer, freed here).
NOINLINE void missing_wait(bool wait, void *mapped = nullptr) {
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = mapped ? mapped : device_buffer(), *host = pinned_buffer();
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  OK(aclrtMemsetAsync(dev, kBytes, 7, kBytes, s1));
  if (wait) {
    OK(aclrtRecordEvent(e, s1));
    OK(aclrtStreamWaitEvent(s2, e));
  }
  OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  OK(aclrtSynchronizeStream(s2));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtDestroyEvent(e));
  if (!mapped) OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}
NOINLINE void bug_missing_wait() {
  Runtime rt;
  missing_wait(false);
}
NOINLINE void ok_missing_wait() {
  Runtime rt;
  missing_wait(true);
}

// A notify wait enqueued before its record: the reader on s2 is queued first, the writer and
// the record on s1 after it. Ordered when the record follows the write; a race when it precedes.
NOINLINE void notify_wait_first(bool write_before_record) {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *host = pinned_buffer();
  aclrtNotify n;
  OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  OK(aclrtWaitAndResetNotify(n, s2, 0));
  OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  if (write_before_record) OK(aclrtMemsetAsync(dev, kBytes, 7, kBytes, s1));
  OK(aclrtRecordNotify(n, s1));
  if (!write_before_record) OK(aclrtMemsetAsync(dev, kBytes, 7, kBytes, s1));
  OK(aclrtSynchronizeStream(s2));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtDestroyNotify(n));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}
NOINLINE void ok_notify_wait_first() { notify_wait_first(true); }
NOINLINE void bug_notify_write_after_record() { notify_wait_first(false); }

// The missing wait again, on memory mapped with aclrtMapMem (virtual memory).
NOINLINE void mapped_wait(bool wait) {
  Runtime rt;
  size_t granularity = 0;
  aclrtPhysicalMemProp prop{};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM;
  prop.location = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
  OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  void *va = nullptr;
  aclrtDrvMemHandle phys = nullptr;
  OK(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0));
  OK(aclrtMallocPhysical(&phys, granularity, &prop, 0));
  OK(aclrtMapMem(va, granularity, 0, phys, 0));
  missing_wait(wait, va);
  OK(aclrtUnmapMem(va));
  OK(aclrtFreePhysical(phys));
  OK(aclrtReleaseMemAddress(va));
}
NOINLINE void bug_mapped_wait() { mapped_wait(false); }
NOINLINE void ok_mapped_wait() { mapped_wait(true); }

// The twin ordered by a notify instead of an event: record, then the other stream's wait.
NOINLINE void ok_notify_wait() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *host = pinned_buffer();
  aclrtNotify n;
  OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  OK(aclrtMemsetAsync(dev, kBytes, 7, kBytes, s1));
  OK(aclrtRecordNotify(n, s1));
  OK(aclrtWaitAndResetNotify(n, s2, 0));
  OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  OK(aclrtSynchronizeStream(s2));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtDestroyNotify(n));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// The twin ordered by a value in device memory: written on s1, waited for on s2.
NOINLINE void ok_value_wait() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *host = pinned_buffer(), *flag = nullptr;
  OK(aclrtMalloc(&flag, sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST));
  OK(aclrtMemset(flag, sizeof(uint64_t), 0, sizeof(uint64_t)));
  OK(aclrtMemsetAsync(dev, kBytes, 7, kBytes, s1));
  OK(aclrtValueWrite(flag, 1, 0, s1));
  OK(aclrtValueWait(flag, 1, ACL_STREAM_WAIT_VALUE_EQ, s2));
  OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  OK(aclrtSynchronizeStream(s2));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtFree(flag));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// The same bug ten times over: reported once.
NOINLINE void bug_missing_wait_loop() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *host = pinned_buffer();
  for (int i = 0; i < 10; ++i) {
    OK(aclrtMemsetAsync(dev, kBytes, i, kBytes, s1));
    OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    OK(aclrtSynchronizeStream(s2));
    OK(aclrtSynchronizeStream(s1));
  }
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// --- host synchronization orders the streams too ----------------------------------------

enum class HostSync { stream, event, device };

NOINLINE void host_sync(HostSync how) {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *host = pinned_buffer();
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  OK(aclrtMemsetAsync(dev, kBytes, 7, kBytes, s1));
  switch (how) {
    case HostSync::stream:
      OK(aclrtSynchronizeStream(s1));
      break;
    case HostSync::event:
      OK(aclrtRecordEvent(e, s1));
      OK(aclrtSynchronizeEvent(e));
      break;
    case HostSync::device:
      OK(aclrtSynchronizeDevice());
      break;
  }
  OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  OK(aclrtSynchronizeStream(s2));
  OK(aclrtDestroyEvent(e));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}
NOINLINE void ok_stream_sync() { host_sync(HostSync::stream); }
NOINLINE void ok_event_sync() { host_sync(HostSync::event); }
NOINLINE void ok_device_sync() { host_sync(HostSync::device); }

// --- a write after the record: the wait covers only what came before it ------------------

NOINLINE void write_after_record(bool fixed) {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *host = pinned_buffer();
  aclrtEvent e, back;
  OK(aclrtCreateEvent(&e));
  OK(aclrtCreateEvent(&back));
  OK(aclrtMemsetAsync(dev, kBytes, 1, kBytes, s1));
  OK(aclrtRecordEvent(e, s1));
  OK(aclrtStreamWaitEvent(s2, e));
  OK(aclrtMemcpyAsync(host, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  if (fixed) {  // s1 overwrites only after s2 has read
    OK(aclrtRecordEvent(back, s2));
    OK(aclrtStreamWaitEvent(s1, back));
  }
  OK(aclrtMemsetAsync(dev, kBytes, 2, kBytes, s1));
  OK(aclrtSynchronizeDevice());
  OK(aclrtDestroyEvent(e));
  OK(aclrtDestroyEvent(back));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}
NOINLINE void bug_write_after_record() { write_after_record(false); }
NOINLINE void ok_write_after_record() { write_after_record(true); }

// --- kernels: a kernel reads what another stream's kernel writes -------------------------

NOINLINE void kernels(bool wait) {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *a = device_buffer(), *b = device_buffer();
  aclrtBinHandle bin;
  aclrtFuncHandle fill;
  OK(aclrtBinaryLoadFromFile(CHECK_KERNELS, nullptr, &bin));
  OK(aclrtBinaryGetFunction(bin, "chk_fill", &fill));
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  int32_t n = static_cast<int32_t>(kBytes / sizeof(int32_t));
  ChkArgs produce{static_cast<int32_t *>(a), nullptr, n, 3};
  OK(aclrtLaunchKernel(fill, 4, &produce, sizeof produce, s1));
  if (wait) {
    OK(aclrtRecordEvent(e, s1));
    OK(aclrtStreamWaitEvent(s2, e));
  }
  ChkArgs consume{static_cast<int32_t *>(b), static_cast<int32_t *>(a), n, 1};
  OK(aclrtLaunchKernel(fill, 4, &consume, sizeof consume, s2));
  OK(aclrtSynchronizeDevice());
  OK(aclrtDestroyEvent(e));
  OK(aclrtBinaryUnLoad(bin));
  OK(aclrtFree(a));
  OK(aclrtFree(b));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}
NOINLINE void bug_kernels() { kernels(false); }
NOINLINE void ok_kernels() { kernels(true); }

// --- kernels on two streams that only read one input: no race -----------------------------
// A kernel's arguments do not say what it reads or writes; the checker sees that neither
// kernel changed the shared input.

NOINLINE void ok_kernels_share_input() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *in = device_buffer(), *out1 = device_buffer(), *out2 = device_buffer();
  aclrtBinHandle bin;
  aclrtFuncHandle fill;
  OK(aclrtBinaryLoadFromFile(CHECK_KERNELS, nullptr, &bin));
  OK(aclrtBinaryGetFunction(bin, "chk_fill", &fill));
  int32_t n = static_cast<int32_t>(kBytes / sizeof(int32_t));
  ChkArgs one{static_cast<int32_t *>(out1), static_cast<int32_t *>(in), n, 1};
  ChkArgs two{static_cast<int32_t *>(out2), static_cast<int32_t *>(in), n, 2};
  OK(aclrtLaunchKernel(fill, 4, &one, sizeof one, s1));
  OK(aclrtLaunchKernel(fill, 4, &two, sizeof two, s2));
  OK(aclrtSynchronizeDevice());
  OK(aclrtBinaryUnLoad(bin));
  for (void *p : {in, out1, out2}) OK(aclrtFree(p));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// Two streams only reading one buffer do not race.
NOINLINE void ok_read_read() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *dev = device_buffer(), *h1 = pinned_buffer(), *h2 = pinned_buffer();
  OK(aclrtMemset(dev, kBytes, 5, kBytes));
  OK(aclrtMemcpyAsync(h1, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s1));
  OK(aclrtMemcpyAsync(h2, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
  OK(aclrtSynchronizeDevice());
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(h1));
  OK(aclrtFreeHost(h2));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// --- the host touches a buffer an async copy still uses ------------------------------------

NOINLINE void host_read(bool sync) {
  Runtime rt;
  aclrtStream s1 = stream("s1");
  void *dev = device_buffer(), *pinned = pinned_buffer();
  static char plain[kBytes];
  OK(aclrtMemset(dev, kBytes, 9, kBytes));
  OK(aclrtMemcpyAsync(pinned, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s1));
  if (sync) OK(aclrtSynchronizeStream(s1));
  OK(aclrtMemcpy(plain, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_HOST));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(pinned));
  OK(aclrtDestroyStream(s1));
}
NOINLINE void bug_host_read() { host_read(false); }
NOINLINE void ok_host_read() { host_read(true); }

// Polling aclrtStreamQuery until the stream is complete orders the host after its tasks too.
NOINLINE void ok_host_read_after_query() {
  Runtime rt;
  aclrtStream s1 = stream("s1");
  void *dev = device_buffer(), *pinned = pinned_buffer();
  static char plain[kBytes];
  OK(aclrtMemset(dev, kBytes, 9, kBytes));
  OK(aclrtMemcpyAsync(pinned, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s1));
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  while (status != ACL_STREAM_STATUS_COMPLETE) {
    OK(aclrtStreamQuery(s1, &status));
    if (status != ACL_STREAM_STATUS_COMPLETE) std::this_thread::yield();
  }
  OK(aclrtMemcpy(plain, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_HOST));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(pinned));
  OK(aclrtDestroyStream(s1));
}

NOINLINE void host_reuse(bool sync) {
  Runtime rt;
  aclrtStream s1 = stream("s1");
  void *dev = device_buffer(), *pinned = pinned_buffer();
  static char plain[kBytes];
  OK(aclrtMemcpyAsync(dev, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, s1));
  if (sync) OK(aclrtSynchronizeStream(s1));
  OK(aclrtMemcpy(pinned, kBytes, plain, kBytes, ACL_MEMCPY_HOST_TO_HOST));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtFree(dev));
  OK(aclrtFreeHost(pinned));
  OK(aclrtDestroyStream(s1));
}
NOINLINE void bug_host_reuse() { host_reuse(false); }
NOINLINE void ok_host_reuse() { host_reuse(true); }

// --- host code on a stream runs after the tasks before it --------------------------------

void *g_device_for_host_func;

extern "C" void read_back(void *) {
  static char plain[kBytes];
  OK(aclrtMemcpy(plain, kBytes, g_device_for_host_func, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
}

NOINLINE void host_func(bool same_stream) {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  g_device_for_host_func = device_buffer();
  OK(aclrtMemsetAsync(g_device_for_host_func, kBytes, 4, kBytes, s1));
  aclrtStream runs_on = same_stream ? s1 : s2;
  OK(aclrtLaunchHostFunc(runs_on, read_back, nullptr));
  // Wait for the host func before anything else: the host must not learn of the memset first.
  OK(aclrtSynchronizeStream(runs_on));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtFree(g_device_for_host_func));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}
NOINLINE void bug_host_func() { host_func(false); }
NOINLINE void ok_host_func() { host_func(true); }

// --- frees while a task still uses the memory ----------------------------------------------

NOINLINE void free_early(bool sync) {
  Runtime rt;
  aclrtStream s1 = stream("s1");
  void *dev = device_buffer();
  OK(aclrtMemsetAsync(dev, kBytes, 1, kBytes, s1));
  if (sync) OK(aclrtSynchronizeStream(s1));
  OK(aclrtFree(dev));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtDestroyStream(s1));
}
NOINLINE void bug_free_early() { free_early(false); }
NOINLINE void ok_free_early() { free_early(true); }

NOINLINE void free_host_early(bool sync) {
  Runtime rt;
  aclrtStream s1 = stream("s1");
  void *dev = device_buffer(), *pinned = pinned_buffer();
  OK(aclrtMemcpyAsync(dev, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, s1));
  if (sync) OK(aclrtSynchronizeStream(s1));
  OK(aclrtFreeHost(pinned));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtFree(dev));
  OK(aclrtDestroyStream(s1));
}
NOINLINE void bug_free_host_early() { free_host_early(false); }
NOINLINE void ok_free_host_early() { free_host_early(true); }

// --- leaks -------------------------------------------------------------------------------

NOINLINE void leak_stream(bool destroy) {
  Runtime rt;
  rt.reset = destroy;  // aclrtResetDevice would release the default context's streams
  aclrtStream s = stream("s1");
  if (destroy) OK(aclrtDestroyStream(s));
}
NOINLINE void bug_leak_stream() { leak_stream(false); }
NOINLINE void ok_leak_stream() { leak_stream(true); }

NOINLINE void leak_memory(bool free) {
  Runtime rt;
  void *p[3];
  for (void *&q : p) q = device_buffer();
  if (free) {
    for (void *q : p) OK(aclrtFree(q));
  }
}
NOINLINE void bug_leak_memory() { leak_memory(false); }
NOINLINE void ok_leak_memory() { leak_memory(true); }

NOINLINE void leak_event(bool destroy) {
  Runtime rt;
  rt.reset = destroy;
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  std::printf("e=%p\n", e);
  if (destroy) OK(aclrtDestroyEvent(e));
}
NOINLINE void bug_leak_event() { leak_event(false); }
NOINLINE void ok_leak_event() { leak_event(true); }

// --- the default context through get/set --------------------------------------------------

NOINLINE void bug_default_context() {
  Runtime rt;
  aclrtContext ctx;
  OK(aclrtGetCurrentContext(&ctx));
}

NOINLINE void ok_default_context() {
  Runtime rt;
  aclrtContext ctx, cur;
  OK(aclrtCreateContext(&ctx, 0));
  OK(aclrtGetCurrentContext(&cur));
  OK(aclrtDestroyContext(ctx));
  OK(aclrtSetDevice(0));  // bind the device's default context again, without get/set
}

// --- a pipeline for the trace: copy in on s1, kernel on s2 after an event, copy out -------

NOINLINE void trace_pipeline() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  void *in = device_buffer(), *out = device_buffer(), *host = pinned_buffer();
  aclrtBinHandle bin;
  aclrtFuncHandle fill;
  OK(aclrtBinaryLoadFromFile(CHECK_KERNELS, nullptr, &bin));
  OK(aclrtBinaryGetFunction(bin, "chk_fill", &fill));
  aclrtEvent e;
  OK(aclrtCreateEvent(&e));
  int32_t n = static_cast<int32_t>(kBytes / sizeof(int32_t));
  for (int i = 0; i < 3; ++i) {
    OK(aclrtMemcpyAsync(in, kBytes, host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    OK(aclrtRecordEvent(e, s1));
    OK(aclrtStreamWaitEvent(s2, e));
    ChkArgs args{static_cast<int32_t *>(out), static_cast<int32_t *>(in), n, i};
    OK(aclrtLaunchKernel(fill, 4, &args, sizeof args, s2));
    OK(aclrtMemcpyAsync(host, kBytes, out, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    OK(aclrtSynchronizeStream(s2));
  }
  OK(aclrtDestroyEvent(e));
  OK(aclrtBinaryUnLoad(bin));
  OK(aclrtFree(in));
  OK(aclrtFree(out));
  OK(aclrtFreeHost(host));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// --- two streams that really run at the same time, for `trace plot` and `trace summary` ---

NOINLINE void trace_overlap() {
  Runtime rt;
  aclrtStream s1 = stream("s1"), s2 = stream("s2");
  aclrtBinHandle bin;
  aclrtFuncHandle meet;
  OK(aclrtBinaryLoadFromFile(CHECK_KERNELS, nullptr, &bin));
  OK(aclrtBinaryGetFunction(bin, "chk_rendezvous", &meet));
  static int32_t flag1, flag2;
  struct {
    int32_t *mine, *other;
    int32_t timeout_ms;
  } a1{&flag1, &flag2, 10000}, a2{&flag2, &flag1, 10000};
  OK(aclrtLaunchKernel(meet, 1, &a1, sizeof a1, s1));
  OK(aclrtLaunchKernel(meet, 1, &a2, sizeof a2, s2));
  OK(aclrtSynchronizeStream(s1));
  OK(aclrtSynchronizeStream(s2));
  OK(aclrtBinaryUnLoad(bin));
  OK(aclrtDestroyStream(s1));
  OK(aclrtDestroyStream(s2));
}

// Exits without aclFinalize, as ggml does: the trace and the checker's last line come at exit.
NOINLINE void exit_without_finalize() {
  OK(aclInit(std::getenv("CHECK_ACL_JSON")));
  OK(aclrtSetDevice(0));
  aclrtStream s = stream("s1");
  void *dev = device_buffer();
  OK(aclrtMemsetAsync(dev, kBytes, 1, kBytes, s));
  OK(aclrtSynchronizeStream(s));
}

int main(int argc, char **argv) {
  static const std::map<std::string, void (*)()> cases = {
      {"bug_missing_wait", bug_missing_wait},
      {"ok_missing_wait", ok_missing_wait},
      {"ok_notify_wait", ok_notify_wait},
      {"ok_notify_wait_first", ok_notify_wait_first},
      {"bug_notify_write_after_record", bug_notify_write_after_record},
      {"ok_host_read_after_query", ok_host_read_after_query},
      {"bug_mapped_wait", bug_mapped_wait},
      {"ok_mapped_wait", ok_mapped_wait},
      {"ok_value_wait", ok_value_wait},
      {"bug_missing_wait_loop", bug_missing_wait_loop},
      {"ok_stream_sync", ok_stream_sync},
      {"ok_event_sync", ok_event_sync},
      {"ok_device_sync", ok_device_sync},
      {"bug_write_after_record", bug_write_after_record},
      {"ok_write_after_record", ok_write_after_record},
      {"bug_kernels", bug_kernels},
      {"ok_kernels", ok_kernels},
      {"ok_kernels_share_input", ok_kernels_share_input},
      {"ok_read_read", ok_read_read},
      {"bug_host_read", bug_host_read},
      {"ok_host_read", ok_host_read},
      {"bug_host_reuse", bug_host_reuse},
      {"ok_host_reuse", ok_host_reuse},
      {"bug_host_func", bug_host_func},
      {"ok_host_func", ok_host_func},
      {"bug_free_early", bug_free_early},
      {"ok_free_early", ok_free_early},
      {"bug_free_host_early", bug_free_host_early},
      {"ok_free_host_early", ok_free_host_early},
      {"bug_leak_stream", bug_leak_stream},
      {"ok_leak_stream", ok_leak_stream},
      {"bug_leak_memory", bug_leak_memory},
      {"ok_leak_memory", ok_leak_memory},
      {"bug_leak_event", bug_leak_event},
      {"ok_leak_event", ok_leak_event},
      {"bug_default_context", bug_default_context},
      {"ok_default_context", ok_default_context},
      {"trace_pipeline", trace_pipeline},
      {"trace_overlap", trace_overlap},
      {"exit_without_finalize", exit_without_finalize},
  };
  if (argc != 2 || cases.count(argv[1]) == 0) {
    std::fprintf(stderr, "usage: check_cases CASE; cases:");
    for (auto &[name, fn] : cases) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 64;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  cases.at(argv[1])();
  return 0;
}
