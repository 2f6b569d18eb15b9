// User kernels (R16): CPU kernels in a shared library, with the SPMD shape of Ascend C
// kernels: void k(uint32_t blockIdx, uint32_t blockDim, void *args).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/handle.h"
#include "core/task.h"

namespace openacl {

using KernelEntry = void (*)(uint32_t block_idx, uint32_t block_dim, void *args);

// A loaded kernel library. dlclose happens when the last function or pending launch using it
// lets go.
class Binary : public Handled {
 public:
  // Throws Errc::invalid_file with dlerror's words when the library cannot be loaded.
  explicit Binary(const std::string &path);
  // A library in memory (aclrtBinaryLoadFromData), loaded through an anonymous file.
  static std::shared_ptr<Binary> from_data(const void *data, size_t size);
  ~Binary();
  const std::string &path() const { return path_; }
  // Throws Errc::symbol_not_found.
  KernelEntry lookup(const std::string &name) const;

 private:
  std::string path_;
  void *library_ = nullptr;
  // The anonymous file of an in-memory library: open while it is loaded, so that no other
  // library is loaded under the same /proc/self/fd name meanwhile.
  int memfd_ = -1;
};

struct Function : Handled {
  std::shared_ptr<Binary> binary;
  KernelEntry entry = nullptr;
  std::string name;
};

// A pointer the launch writes into its copy of the arguments: at byte `slot`, the address of
// byte `data` of the same copy (a placeholder argument whose data travels with the arguments).
struct ArgsFixup {
  size_t slot;
  size_t data;
};

// One launch: numBlocks calls of the kernel spread over the AI cores.
class KernelTask final : public Task {
 public:
  KernelTask(std::shared_ptr<const Function> fn, uint32_t num_blocks, const void *args,
             size_t args_size, std::vector<ArgsFixup> fixups = {});
  void run(ExecContext &ctx) override;
  std::string label() const override { return fn_->name; }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    return std::make_unique<KernelTask>(fn_, num_blocks_, args_, args_size_, fixups_);
  }
  // args: the task's copy of the arguments (what the kernel's blocks receive).
  KernelLaunch kernel_launch() const override { return {fn_.get(), args_, args_size_}; }

 private:
  // Kernel arguments are usually a few pointers and sizes: keep them in the task.
  static constexpr size_t kInlineArgs = 64;
  std::shared_ptr<const Function> fn_;
  uint32_t num_blocks_;
  size_t args_size_;
  alignas(16) uint8_t inline_args_[kInlineArgs];
  std::unique_ptr<uint8_t[]> heap_args_;
  uint8_t *args_ = nullptr;  // copied at launch
  std::vector<ArgsFixup> fixups_;
};

}  // namespace openacl
