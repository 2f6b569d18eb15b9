#include "nn/plan_cache.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "core/runtime.h"
#include "nn/thread_scratch.h"

namespace openacl::nn {

namespace {

// Writes a key into the thread's buffer: fixed-size values as plain stores, where appending to
// a std::string calls out of line for each (ggml's calls make a key per operator call).
class KeyWriter {
 public:
  explicit KeyWriter(std::vector<char> &buf) : buf_(buf) {}
  // `bytes` more at the end; the pointer is valid until the next room().
  char *room(size_t bytes) {
    if (size_ + bytes > buf_.size()) buf_.resize(std::max(2 * buf_.size(), size_ + bytes));
    char *p = buf_.data() + size_;
    size_ += bytes;
    return p;
  }
  template <class T>
  void put(const T &v) {
    std::memcpy(room(sizeof v), &v, sizeof v);
  }
  void put_bytes(const void *p, size_t n) {
    if (n > 0) std::memcpy(room(n), p, n);
  }
  template <class T>
  void put_all(const std::vector<T> &v) {
    put(v.size());
    put_bytes(v.data(), v.size() * sizeof(T));
  }
  std::string_view view() const { return {buf_.data(), size_}; }

 private:
  std::vector<char> &buf_;
  size_t size_ = 0;
};

template <class T>
bool live(const T *p) {
  return p != nullptr && p->tag == T::kTag;
}

// A tensor's description: the words init_tensor wrote (aclTensor::key), then the storage dims
// when they differ from the view's.
bool put_tensor(KeyWriter &k, const aclTensor *t) {
  if (!live(t)) return false;
  k.put_bytes(t->key.words, t->key.size * sizeof(uint64_t));
  if (t->key.own_storage) k.put_all(t->storage_dims);  // any number of dims
  return true;
}

bool put_scalar(KeyWriter &k, const aclScalar *s) {
  if (!live(s)) return false;
  k.put(s->dtype);
  k.put(s->value);
  k.put(s->int_value);
  return true;
}

// This thread's plans, emptied when a new runtime began (plans hold prepared ops of the old one).
ThreadScratch::Plans &plans() {
  ThreadScratch &c = thread_scratch();
  const uint64_t epoch = Runtime::get().epoch();
  if (c.epoch != epoch) {
    c.plans.clear();
    c.epoch = epoch;
  }
  return c.plans;
}

// Programs use a few hundred shapes at most; one that keeps making new ones starts over.
constexpr size_t kMaxPlans = 1024;

}  // namespace

// A word at a time in two independent lanes (keys are mostly 8-byte words; a multiply chain of
// one lane is what a lookup waits for), mixed at the end: much less than std::hash's byte-wise
// Murmur on ggml's keys of about a hundred bytes, hashed once per operator call.
size_t ThreadScratch::KeyHash::operator()(std::string_view k) const noexcept {
  constexpr uint64_t kA = 0x9e3779b97f4a7c15, kB = 0xff51afd7ed558ccd;
  uint64_t a = k.size() * kA, b = kB;
  size_t i = 0;
  for (; i + 16 <= k.size(); i += 16) {
    uint64_t w[2];
    std::memcpy(w, k.data() + i, 16);
    a = (a ^ w[0]) * kB;
    b = (b ^ w[1]) * kA;
  }
  uint64_t tail = 0;
  for (; i < k.size(); ++i) tail = tail << 8 | static_cast<uint8_t>(k[i]);
  uint64_t h = (a ^ (b >> 31) ^ (b << 33) ^ tail) * 0xc4ceb9fe1a85ec53;
  h ^= h >> 32;
  h *= kB;
  return h ^ (h >> 29);
}

bool plan_key(const char *op, std::span<const Arg> args, std::string_view &key) {
  KeyWriter k(thread_scratch().key);
  k.put_bytes(op, std::strlen(op) + 1);
  for (const Arg &a : args) {
    k.put(static_cast<char>(a.index()));
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
            k.put_all(v->values);
            return true;
          } else if constexpr (std::is_same_v<V, const aclBoolArray *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            k.put(v->values.size());
            for (bool b : v->values) k.put(b ? '1' : '0');
            return true;
          } else if constexpr (std::is_same_v<V, const aclTensorList *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            k.put(v->tensors.size());
            for (const aclTensor *t : v->tensors)
              if (!put_tensor(k, t)) return false;
            return true;
          } else if constexpr (std::is_same_v<V, const aclScalarList *>) {
            if (v == nullptr) return true;
            if (!live(v)) return false;
            k.put(v->scalars.size());
            for (const aclScalar *s : v->scalars)
              if (!put_scalar(k, s)) return false;
            return true;
          } else if constexpr (std::is_same_v<V, const char *>) {
            if (v == nullptr) return false;
            k.put_bytes(v, std::strlen(v) + 1);
            return true;
          } else {
            k.put(v);
            return true;
          }
        },
        a);
    if (!ok) return false;
  }
  key = k.view();
  return true;
}

const CachedPlan *find_plan(std::string_view key) {
  auto &kept = plans();
  auto it = kept.find(key);
  return it == kept.end() ? nullptr : &it->second;
}

void keep_plan(std::string_view key, CachedPlan plan) {
  auto &kept = plans();
  if (kept.size() >= kMaxPlans) kept.clear();
  kept.emplace(std::string(key), std::move(plan));
}

void *source_address(std::span<const Arg> args, SlotSource s) {
  const Arg &a = args[s.arg];
  if (const auto *t = std::get_if<const aclTensor *>(&a)) return (*t)->data;
  return std::get<const aclTensorList *>(a)->tensors[s.item]->data;
}

}  // namespace openacl::nn
