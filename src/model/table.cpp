#include "model/table.h"

#include <atomic>
#include <string>

#include "core/context.h"
#include "core/runtime.h"

namespace openacl::model {
namespace {

Registry<Model> &models() { return Runtime::get().tables.of<Model>(); }

const void *key(uint32_t id) { return reinterpret_cast<const void *>(uintptr_t{id}); }

// Counts on across aclFinalize: an id from before it never names a model loaded after it.
std::atomic<uint32_t> next_id{1};

}  // namespace

uint32_t add_model(std::shared_ptr<Model> model) {
  const uint32_t id = next_id.fetch_add(1, std::memory_order_relaxed);
  models().add(key(id), std::move(model));
  return id;
}

std::shared_ptr<Model> find_model(uint32_t id) {
  auto m = models().find(key(id));
  if (!m) fail(Errc::invalid_model_id, "model id " + std::to_string(id) + " is not a loaded model");
  if (m->context().destroyed()) {
    models().remove(key(id));
    fail(Errc::invalid_model_id,
         "model id " + std::to_string(id) +
             " was released with its context (aclFinalize or aclrtResetDevice)");
  }
  return m;
}

std::shared_ptr<Model> remove_model(uint32_t id) {
  auto m = find_model(id);
  models().remove(key(id));
  return m;
}

}  // namespace openacl::model
