// Prints the checker's findings to stderr, each once, with the "openacl-check:" prefix; in
// abort mode (OPENACL_CHECK=abort, for CI) the first problem ends the process after printing.
//
// Thread safety: all members may be called from any thread.
#pragma once

#include <cstddef>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

namespace openacl::check {

class Reporter {
 public:
  explicit Reporter(bool abort_on_problem) : abort_(abort_on_problem) {}

  // What tells two findings apart: the category and up to two call sites (and a detail).
  using Key = std::tuple<std::string, uintptr_t, uintptr_t, uintptr_t>;

  // A problem (race, use after free, leak). `text` is the report without the prefix; its
  // first line is "<category>: <summary>". Returns false when the same key was reported.
  bool problem(const Key &key, const std::string &text);
  // A warning never aborts the process.
  bool warning(const Key &key, const std::string &text);
  size_t problems() const;
  size_t warnings() const;

 private:
  bool print(const Key &key, const std::string &text);

  const bool abort_;
  mutable std::mutex mu_;
  std::set<Key> seen_;
  size_t problems_ = 0;
  size_t warnings_ = 0;
};

}  // namespace openacl::check
