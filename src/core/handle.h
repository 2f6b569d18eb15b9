// Objects that the C API hands out as handles. A handle is an opaque value drawn from a
// process-wide counter, never an address: a destroyed object's handle is never given to a
// new object, so a stale handle is always found dead instead of reaching someone else's
// object (R19).
#pragma once

namespace openacl {

template <class T>
class Registry;

class Handled {
 public:
  void *handle() const { return handle_; }

 private:
  template <class T>
  friend class Registry;
  void *handle_ = nullptr;
};

}  // namespace openacl
