// The operator kernels a backend runs, by Ascend op type. aclopExecuteV2, aclnn's plans and
// model plans find every operator's kernel through the device's backend
// (DeviceBackend::kernels), so a device runs only the operators its backend has kernels for.
// A kernel is what the op library (ops/) calls an OpBuilder: given one call (descriptors,
// attributes) it checks it and returns the prepared op. The backend layer only carries the
// table; the op library fills sim's, its CPU kernels (ops::host_kernels), and the composition
// root hands each device its backend's table (RuntimeParts::kernels).
//
// Thread safety: filled before the runtime starts (static initialization), read-only after.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace openacl::ops {
class OpCall;
class PreparedOp;
}  // namespace openacl::ops

namespace openacl::backend {

using OpBuilder = std::unique_ptr<ops::PreparedOp> (*)(ops::OpCall &call);

class KernelTable {
 public:
  // backend: the name of the backend whose kernels these are ("sim"), for messages.
  explicit KernelTable(std::string backend) : backend_(std::move(backend)) {}
  const std::string &backend() const { return backend_; }

  void add(const std::string &op_type, OpBuilder build) { kernels_.emplace(op_type, build); }
  // op_type's kernel, or nullptr when the backend has none.
  OpBuilder find(const std::string &op_type) const {
    auto it = kernels_.find(op_type);
    return it == kernels_.end() ? nullptr : it->second;
  }
  bool supports(const std::string &op_type) const { return find(op_type) != nullptr; }
  // Every op type the table has a kernel for: a backend may build its table over another's.
  std::vector<std::string> types() const {
    std::vector<std::string> out;
    for (const auto &entry : kernels_) out.push_back(entry.first);
    return out;
  }

 private:
  std::string backend_;
  std::unordered_map<std::string, OpBuilder> kernels_;
};

}  // namespace openacl::backend
