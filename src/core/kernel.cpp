#include "core/kernel.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "core/memory.h"
#include "core/runtime.h"
#include "core/status.h"
#include "openacl/openacl_kernel.h"

namespace openacl {
namespace {

// The launch a worker is running a block of, so that openaclKernelFail can find it.
struct LaunchFailure {
  std::atomic<bool> failed{false};
  std::mutex mu;
  std::string message;
};
thread_local LaunchFailure *current_launch = nullptr;

}  // namespace

Binary::Binary(const std::string &path) : path_(path) {
  library_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    const char *why = dlerror();
    fail(Errc::invalid_file, "cannot load kernel binary '" + path + "': " + (why ? why : "?"));
  }
}

std::shared_ptr<Binary> Binary::from_data(const void *data, size_t size) {
  const int fd = memfd_create("openacl-kernels", MFD_CLOEXEC);
  if (fd < 0) fail(Errc::internal, std::string("memfd_create failed: ") + std::strerror(errno));
  const auto *p = static_cast<const uint8_t *>(data);
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, p + done, size - done);
    if (n <= 0) {
      ::close(fd);
      fail(Errc::internal, std::string("cannot stage the kernel binary: ") + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  std::shared_ptr<Binary> b;
  try {
    b = std::make_shared<Binary>("/proc/self/fd/" + std::to_string(fd));
  } catch (const Error &e) {
    ::close(fd);
    fail(Errc::invalid_file, "cannot load the kernel binary in memory (" + std::to_string(size) +
                                 " bytes; a CPU kernel shared library is expected): " + e.what());
  }
  b->memfd_ = fd;
  b->path_ = "<" + std::to_string(size) + " bytes in memory>";
  return b;
}

Binary::~Binary() {
  if (library_ != nullptr) dlclose(library_);
  if (memfd_ >= 0) ::close(memfd_);
}

KernelEntry Binary::lookup(const std::string &name) const {
  dlerror();
  void *sym = dlsym(library_, name.c_str());
  if (sym == nullptr) {
    fail(Errc::symbol_not_found,
         "kernel '" + name + "' not found in '" + path_ +
             "' (is it exported with extern \"C\" and default visibility?)");
  }
  return reinterpret_cast<KernelEntry>(sym);
}

KernelTask::KernelTask(std::shared_ptr<const Function> fn, uint32_t num_blocks, const void *args,
                       size_t args_size, std::vector<ArgsFixup> fixups)
    : Task(TaskKind::kernel),
      fn_(std::move(fn)),
      num_blocks_(num_blocks),
      args_size_(args_size),
      fixups_(std::move(fixups)) {
  if (args_size != 0) {
    if (args_size <= kInlineArgs) {
      args_ = inline_args_;
    } else {
      heap_args_.reset(new uint8_t[args_size]);
      args_ = heap_args_.get();
    }
    std::memcpy(args_, args, args_size);
  }
  for (const ArgsFixup &f : fixups_) {
    const uint8_t *target = args_ + f.data;
    std::memcpy(args_ + f.slot, &target, sizeof(target));
  }
  // The args are opaque bytes: any aligned word that points into device memory is memory the
  // kernel may read and write, as far as tracing and the race checker can tell.
  MemoryMap &memory = Runtime::get().memory();
  for (size_t off = 0; off + sizeof(void *) <= args_size_; off += sizeof(void *)) {
    void *p;
    std::memcpy(&p, args_ + off, sizeof(p));
    if (Allocation a; memory.find(p, a) && a.kind == MemoryKind::device)
      add_range(reinterpret_cast<void *>(a.base), a.size, true, /*guessed=*/true);
  }
}

void KernelTask::run(ExecContext &ctx) {
  LaunchFailure failure;
  void *args = args_;
  ctx.cores.parallel_for(num_blocks_, [&](size_t block) {
    LaunchFailure *outer = current_launch;
    current_launch = &failure;
    fn_->entry(static_cast<uint32_t>(block), num_blocks_, args);
    current_launch = outer;
  });
  if (failure.failed.load()) {
    fail(Errc::kernel_failure, "kernel '" + fn_->name + "' reported failure: " + failure.message);
  }
}

}  // namespace openacl

extern "C" void openaclKernelFail(const char *message) {
  openacl::LaunchFailure *f = openacl::current_launch;
  if (f == nullptr) return;
  std::lock_guard lock(f->mu);
  if (!f->failed.exchange(true)) f->message = message != nullptr ? message : "(no message)";
}
