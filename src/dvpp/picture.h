// The state behind an acldvppPicDesc. The caller sets it; a decode task writes the decoded
// size, strides and return code back into it when it runs (CANN fills the output description
// in stream order), so it is shared between the descriptor and the tasks that use it.
//
// Thread safety: every field is atomic: a Get on the host may race a task's write-back
// without tearing; what it reads before synchronizing the stream is unspecified, as in CANN.
#pragma once

#include <atomic>
#include <cstdint>

#include "dvpp/image.h"

namespace openacl::dvpp {

struct Picture {
  std::atomic<void *> data{nullptr};
  std::atomic<uint32_t> size{0}, format{0}, width{0}, height{0};
  std::atomic<uint32_t> width_stride{0}, height_stride{0}, ret_code{0};

  Image snapshot() const {
    auto r = std::memory_order_relaxed;
    return {static_cast<uint8_t *>(data.load(r)),
            size.load(r),
            format.load(r),
            width.load(r),
            height.load(r),
            width_stride.load(r),
            height_stride.load(r)};
  }
  // What a decoder produced: format, size and strides of the written picture.
  void write_back(const Image &img, uint32_t bytes) {
    auto r = std::memory_order_relaxed;
    format.store(img.format, r);
    width.store(img.width, r);
    height.store(img.height, r);
    width_stride.store(img.width_stride, r);
    height_stride.store(img.height_stride, r);
    size.store(bytes, r);
    ret_code.store(0, r);
  }
};

}  // namespace openacl::dvpp
