#include "nn/plan_cache.h"

#include <cstring>
#include <memory>
#include <unordered_map>

#include "core/runtime.h"

namespace openacl::nn {

namespace {

template <class T>
void put(std::string &k, const T &v) {
  k.append(reinterpret_cast<const char *>(&v), sizeof v);
}
template <class T>
void put_all(std::string &k, const std::vector<T> &v) {
  put(k, v.size());
  k.append(reinterpret_cast<const char *>(v.data()), v.size() * sizeof(T));
}

template <class T>
bool live(const T *p) {
  return p != nullptr && p->tag == T::kTag;
}

// A tensor's description in one resize of the key (the costliest part of a call's key: ggml's
// calls pass three or four tensors).
bool put_tensor(std::string &k, const aclTensor *t) {
  if (!live(t)) return false;
  const auto &v = t->view;
  const size_t words = 3 + v.dims.size() + v.strides.size() + t->storage_dims.size();
  const size_t at = k.size();
  k.resize(at + sizeof t->dtype + sizeof t->format + sizeof v.offset + words * sizeof(int64_t));
  char *p = k.data() + at;
  auto write = [&](const void *from, size_t bytes) {
    std::memcpy(p, from, bytes);
    p += bytes;
  };
  auto write_all = [&](const std::vector<int64_t> &x) {
    const int64_t n = static_cast<int64_t>(x.size());
    write(&n, sizeof n);
    write(x.data(), x.size() * sizeof(int64_t));
  };
  write(&t->dtype, sizeof t->dtype);
  write(&t->format, sizeof t->format);
  write_all(v.dims);
  write_all(v.strides);
  write(&v.offset, sizeof v.offset);
  write_all(t->storage_dims);
  return true;
}

bool put_scalar(std::string &k, const aclScalar *s) {
  if (!live(s)) return false;
  put(k, s->dtype);
  put(k, s->value);
  put(k, s->int_value);
  return true;
}

struct Cache {
  uint64_t epoch = 0;
  std::unordered_map<std::string, CachedPlan> plans;
  std::string key;  // key_buffer()
};

// Behind a pointer: libascendcl's thread-locals must fit the static TLS that a dlopen (Python)
// can still get, since one of them is initial-exec (core/thread_state.h).
Cache &thread_cache() {
  thread_local std::unique_ptr<Cache> c;
  if (!c) c = std::make_unique<Cache>();
  return *c;
}

Cache &cache() {
  Cache &c = thread_cache();
  const uint64_t epoch = Runtime::get().epoch();
  if (c.epoch != epoch) {
    c.plans.clear();
    c.epoch = epoch;
  }
  return c;
}

// Programs use a few hundred shapes at most; one that keeps making new ones starts over.
constexpr size_t kMaxPlans = 1024;

}  // namespace

bool plan_key(const char *op, std::span<const Arg> args, std::string &k) {
  k.clear();
  k.append(op).push_back('\0');
  for (const Arg &a : args) {
    k.push_back(static_cast<char>(a.index()));
    const bool ok = std::visit(
        [&](const auto &v) -> bool {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, const aclTensor *>) {
            return v == nullptr || put_tensor(k, v);  // an optional tensor may be NULL
          } else if constexpr (std::is_same_v<V, const aclScalar *>) {
            return v == nullptr || put_scalar(k, v);
          } else if constexpr (std::is_same_v<V, const aclIntArray *> ||
                               std::is_same_v<V, const aclFloatArray *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            put_all(k, v->values);
            return true;
          } else if constexpr (std::is_same_v<V, const aclBoolArray *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            put(k, v->values.size());
            for (bool b : v->values) k.push_back(b ? '1' : '0');
            return true;
          } else if constexpr (std::is_same_v<V, const aclTensorList *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            put(k, v->tensors.size());
            for (const aclTensor *t : v->tensors)
              if (!put_tensor(k, t)) return false;
            return true;
          } else if constexpr (std::is_same_v<V, const aclScalarList *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            put(k, v->scalars.size());
            for (const aclScalar *s : v->scalars)
              if (!put_scalar(k, s)) return false;
            return true;
          } else if constexpr (std::is_same_v<V, const char *>) {
            if (v == nullptr) return false;
            k.append(v, std::strlen(v) + 1);
            return true;
          } else {
            put(k, v);
            return true;
          }
        },
        a);
    if (!ok) return false;
  }
  return true;
}

std::string &key_buffer() { return thread_cache().key; }

const CachedPlan *find_plan(const std::string &key) {
  auto &plans = cache().plans;
  auto it = plans.find(key);
  return it == plans.end() ? nullptr : &it->second;
}

void keep_plan(std::string key, CachedPlan plan) {
  auto &plans = cache().plans;
  if (plans.size() >= kMaxPlans) plans.clear();
  plans.emplace(std::move(key), std::move(plan));
}

void *source_address(std::span<const Arg> args, SlotSource s) {
  const Arg &a = args[s.arg];
  if (const auto *t = std::get_if<const aclTensor *>(&a)) return (*t)->data;
  return std::get<const aclTensorList *>(a)->tensors[s.item]->data;
}

}  // namespace openacl::nn
