// The invariants checked on every call, and the small shared pieces (Rng, Pool, World).
#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_set>

#include "fuzz.h"

namespace fuzz {

namespace {

struct CodeName {
  const char *name;
  int64_t value;
};

// Generated from include/acl/**/*.h by CMakeLists.txt: every ACL_ERROR_* and ACL_SUCCESS.
const CodeName kCodes[] = {
#include "acl_error_codes.inc"
};

const std::unordered_set<aclError> &codes() {
  static const std::unordered_set<aclError> set = [] {
    std::unordered_set<aclError> s;
    for (const auto &c : kCodes) s.insert(static_cast<aclError>(c.value));
    return s;
  }();
  return set;
}

// Each distinct violation (call and kind) is printed once, with the seed, then only counted.
std::mutex report_mu;
std::map<std::string, uint64_t> seen;

bool first_time(const std::string &key) {
  std::lock_guard lock(report_mu);
  return seen[key]++ == 0;
}

uint64_t splitmix(uint64_t &x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

World &world() {
  static World *w = new World();  // never destroyed: runtime threads may still run callbacks
  return *w;
}

Rng::Rng(uint64_t seed) {
  for (auto &s : s_) s = splitmix(seed);
}

uint64_t Rng::next() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  uint64_t r = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return r;
}

Entry Pool::add(Entry e, Rng &rng) {
  std::lock_guard lock(mu_);
  if (items_.size() < capacity_) {
    items_.push_back(e);
    return {};
  }
  Entry &slot = items_[rng.below(items_.size())];
  Entry old = slot;
  slot = e;
  if (evicted_.size() < 256) evicted_.push_back(old);
  else evicted_[next_evicted_++ % 256] = old;
  return old;
}

bool Pool::overlaps(uintptr_t lo, uintptr_t hi) {
  std::lock_guard lock(mu_);
  for (const auto *v : {&items_, &evicted_})
    for (const Entry &e : *v)
      if (e.value < hi && lo < e.value + std::max<size_t>(e.size, 1)) return true;
  return false;
}

bool Pool::pick(Rng &rng, Entry *out) {
  std::lock_guard lock(mu_);
  if (items_.empty()) return false;
  *out = items_[rng.below(items_.size())];
  return true;
}

void Pool::clear() {
  std::lock_guard lock(mu_);
  items_.clear();
}

size_t Pool::size() {
  std::lock_guard lock(mu_);
  return items_.size();
}

bool documented(aclError code) { return codes().count(code) != 0; }

void violation(const char *who, const char *api, const std::string &what) {
  World &w = world();
  w.stats.violations.fetch_add(1);
  if (!first_time(std::string(api) + ": " + what.substr(0, what.find(" [")))) return;
  std::fprintf(stderr, "[fuzz] VIOLATION seed=%llu thread=%s call=%s: %s\n",
               static_cast<unsigned long long>(w.opt.seed), who, api, what.c_str());
}

// -v: calls and successes per API, printed at the end (to tune the mix).
std::mutex per_api_mu;
std::map<std::string, std::pair<uint64_t, uint64_t>> per_api;
std::map<std::string, double> per_api_s;

void print_per_api() {
  std::lock_guard lock(per_api_mu);
  for (auto &[api, c] : per_api)
    std::fprintf(stderr, "[fuzz]   %-36s %9llu calls %5.1f%% ok %8.2f s\n", api.c_str(),
                 static_cast<unsigned long long>(c.first),
                 100.0 * c.second / std::max<uint64_t>(c.first, 1), per_api_s[api]);
}

void record_time(const char *api, std::chrono::steady_clock::duration d) {
  std::lock_guard lock(per_api_mu);
  per_api_s[api] += std::chrono::duration<double>(d).count();
}

aclError checked(Progress &p, const char *api, aclError ret) {
  World &w = world();
  if (w.opt.verbose) {
    std::lock_guard lock(per_api_mu);
    auto &c = per_api[api];
    ++c.first;
    c.second += ret == ACL_SUCCESS;
  }
  w.stats.calls.fetch_add(1, std::memory_order_relaxed);
  p.calls.fetch_add(1, std::memory_order_relaxed);
  if (ret == ACL_SUCCESS) {
    w.stats.successes.fetch_add(1, std::memory_order_relaxed);
    return ret;
  }
  w.stats.failures.fetch_add(1, std::memory_order_relaxed);
  if (!documented(ret))
    violation(p.name, api, "returned " + std::to_string(ret) + ", not a documented aclError code");
  const char *m = aclGetRecentErrMsg();
  std::string msg = m ? m : "";
  if (msg.empty()) {
    violation(p.name, api, "returned " + std::to_string(ret) + " with an empty aclGetRecentErrMsg");
  } else if (msg.rfind(api, 0) != 0 || msg.size() <= std::strlen(api) ||
             msg[std::strlen(api)] != ':') {
    violation(p.name, api,
              "returned " + std::to_string(ret) + ", recent message does not start with \"" + api +
                  ":\" [" + msg + "]");
  }
  if (ret == ACL_ERROR_INTERNAL_ERROR || ret == ACL_ERROR_RT_INTERNAL_ERROR) {
    // Documented, but it means the runtime met a state it did not expect: reported, not fatal.
    w.stats.internal_errors.fetch_add(1);
    if (first_time(std::string("internal ") + api))
      std::fprintf(stderr, "[fuzz] note seed=%llu thread=%s call=%s returned %d: %s\n",
                   static_cast<unsigned long long>(w.opt.seed), p.name, api, ret, msg.c_str());
  }
  return ret;
}

}  // namespace fuzz
