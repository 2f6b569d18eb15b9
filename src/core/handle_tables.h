// Registries for the handle kinds that the layers above the core define. Each kind gets a
// Registry<T> owned by the Runtime, so every handle the C API hands out is checked by one idiom.
// Two lifetimes:
// - runtime objects (loaded models, kernel argument lists, stream registrations, DVPP memory):
//   of<T>(); aclFinalize empties these tables with the core's own, so such a handle made before
//   aclFinalize is found dead afterwards, never dereferenced;
// - data descriptions the program owns like its own memory (datasets, model descriptions,
//   configuration handles, profiling configs; CANN's pure data calls): kept<T>(); they stay
//   valid across aclFinalize until the program destroys them.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "core/registry.h"

namespace openacl {

// Thread safety: of() may be called from any thread at any time; the registries have their own
// contract (core/registry.h). release_all() runs inside aclFinalize, after the calls in flight.
class HandleTables {
 public:
  // The table of runtime objects of kind T. A kind is a type: wrap a plain type (bytes, ids) in
  // a struct of its own. Only the Runtime's one instance has tables, so the first call's table
  // serves every later one.
  template <class T>
  Registry<T> &of() {
    static Registry<T> &table = add<T, true>();
    return table;
  }
  // The table of data descriptions of kind T, which aclFinalize leaves alone.
  template <class T>
  Registry<T> &kept() {
    static Registry<T> &table = add<T, false>();
    return table;
  }
  // Empties every table of runtime objects. The objects go once no call holds them any more.
  void release_all() {
    std::vector<Table *> tables;
    {
      std::lock_guard lock(mu_);
      for (auto &t : tables_) tables.push_back(t.get());
    }
    for (Table *t : tables) t->clear();
  }

 private:
  struct Table {
    virtual ~Table() = default;
    virtual void clear() = 0;
  };
  template <class T, bool kReleasedByFinalize>
  struct TableOf final : Table {
    Registry<T> registry;
    void clear() override {
      if constexpr (kReleasedByFinalize) registry.take_all();
    }
  };

  template <class T, bool kReleasedByFinalize>
  Registry<T> &add() {
    auto table = std::make_unique<TableOf<T, kReleasedByFinalize>>();
    Registry<T> &registry = table->registry;
    std::lock_guard lock(mu_);
    tables_.push_back(std::move(table));
    return registry;
  }

  std::mutex mu_;
  std::vector<std::unique_ptr<Table>> tables_;
};

}  // namespace openacl
