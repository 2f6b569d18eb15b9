// Picture descriptions and batches of them (acldvppCreatePicDesc, every Set/Get,
// acldvppCreateBatchPicDesc). Pure data calls: no aclInit needed; buffers and sizes are checked
// by the calls that use them.
#include <new>

#include "api/guard.h"
#include "dvpp/api/accessors.h"
#include "dvpp/api/descs.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

bool known_format(int64_t f) {
  return (f >= PIXEL_FORMAT_YUV_400 && f <= PIXEL_FORMAT_BGRA_8565) ||
         (f >= PIXEL_FORMAT_RGB_BAYER_8BPP && f <= PIXEL_FORMAT_RGB_BAYER_16BPP) ||
         (f >= PIXEL_FORMAT_BGR_888_PLANAR && f <= PIXEL_FORMAT_S64C1) ||
         (f >= PIXEL_FORMAT_YUV_SEMIPLANAR_440 && f <= PIXEL_FORMAT_FLOAT32) ||
         f == PIXEL_FORMAT_UNKNOWN;
}

template <class F>
aclError set(const char *api, acldvppPicDesc *picDesc, F &&assign) {
  return guarded(api, [&] { assign(*checked(picDesc, "picDesc")->pic); });
}

template <class T, class F>
T get(const char *api, const acldvppPicDesc *picDesc, F &&read) {
  return openacl::dvpp::api::get<T>(api, picDesc, "picDesc",
                                    [&](const auto &d) { return read(*d.pic); });
}

}  // namespace

extern "C" {

acldvppPicDesc *acldvppCreatePicDesc(void) { return new (std::nothrow) acldvppPicDesc; }

aclError acldvppDestroyPicDesc(acldvppPicDesc *picDesc) {
  return guarded(__func__, [&] {
    if (checked(picDesc, "picDesc")->in_batch)
      fail(Errc::invalid_argument,
           "picDesc belongs to an acldvppBatchPicDesc: destroy the batch instead");
    delete picDesc;
  });
}

aclError acldvppSetPicDescData(acldvppPicDesc *picDesc, void *dataDev) {
  return set(__func__, picDesc, [&](auto &p) { p.data.store(dataDev, kRelaxed); });
}
aclError acldvppSetPicDescSize(acldvppPicDesc *picDesc, uint32_t size) {
  return set(__func__, picDesc, [&](auto &p) { p.size.store(size, kRelaxed); });
}
aclError acldvppSetPicDescFormat(acldvppPicDesc *picDesc, acldvppPixelFormat format) {
  return set(__func__, picDesc, [&](auto &p) {
    auto f = openacl::api::enum_value(format);
    if (!known_format(f))
      fail(Errc::invalid_argument, "format " + std::to_string(f) + " is not an acldvppPixelFormat");
    p.format.store(static_cast<uint32_t>(f), kRelaxed);
  });
}
aclError acldvppSetPicDescWidth(acldvppPicDesc *picDesc, uint32_t width) {
  return set(__func__, picDesc, [&](auto &p) { p.width.store(width, kRelaxed); });
}
aclError acldvppSetPicDescHeight(acldvppPicDesc *picDesc, uint32_t height) {
  return set(__func__, picDesc, [&](auto &p) { p.height.store(height, kRelaxed); });
}
aclError acldvppSetPicDescWidthStride(acldvppPicDesc *picDesc, uint32_t widthStride) {
  return set(__func__, picDesc, [&](auto &p) { p.width_stride.store(widthStride, kRelaxed); });
}
aclError acldvppSetPicDescHeightStride(acldvppPicDesc *picDesc, uint32_t heightStride) {
  return set(__func__, picDesc, [&](auto &p) { p.height_stride.store(heightStride, kRelaxed); });
}
aclError acldvppSetPicDescRetCode(acldvppPicDesc *picDesc, uint32_t retCode) {
  return set(__func__, picDesc, [&](auto &p) { p.ret_code.store(retCode, kRelaxed); });
}

void *acldvppGetPicDescData(const acldvppPicDesc *picDesc) {
  return get<void *>(__func__, picDesc, [](auto &p) { return p.data.load(kRelaxed); });
}
uint32_t acldvppGetPicDescSize(const acldvppPicDesc *picDesc) {
  return get<uint32_t>(__func__, picDesc, [](auto &p) { return p.size.load(kRelaxed); });
}
acldvppPixelFormat acldvppGetPicDescFormat(const acldvppPicDesc *picDesc) {
  return static_cast<acldvppPixelFormat>(
      get<uint32_t>(__func__, picDesc, [](auto &p) { return p.format.load(kRelaxed); }));
}
uint32_t acldvppGetPicDescWidth(const acldvppPicDesc *picDesc) {
  return get<uint32_t>(__func__, picDesc, [](auto &p) { return p.width.load(kRelaxed); });
}
uint32_t acldvppGetPicDescHeight(const acldvppPicDesc *picDesc) {
  return get<uint32_t>(__func__, picDesc, [](auto &p) { return p.height.load(kRelaxed); });
}
uint32_t acldvppGetPicDescWidthStride(const acldvppPicDesc *picDesc) {
  return get<uint32_t>(__func__, picDesc, [](auto &p) { return p.width_stride.load(kRelaxed); });
}
uint32_t acldvppGetPicDescHeightStride(const acldvppPicDesc *picDesc) {
  return get<uint32_t>(__func__, picDesc, [](auto &p) { return p.height_stride.load(kRelaxed); });
}
uint32_t acldvppGetPicDescRetCode(const acldvppPicDesc *picDesc) {
  return get<uint32_t>(__func__, picDesc, [](auto &p) { return p.ret_code.load(kRelaxed); });
}

acldvppBatchPicDesc *acldvppCreateBatchPicDesc(uint32_t batchSize) {
  acldvppBatchPicDesc *batch = nullptr;
  (void)guarded(__func__, [&] {
    if (batchSize == 0) fail(Errc::invalid_argument, "batchSize is 0");
    batch = new acldvppBatchPicDesc(batchSize);
  });
  return batch;
}

acldvppPicDesc *acldvppGetPicDesc(acldvppBatchPicDesc *batchPicDesc, uint32_t index) {
  acldvppPicDesc *pic = nullptr;
  (void)guarded(__func__, [&] {
    auto &pics = checked(batchPicDesc, "batchPicDesc")->pics;
    if (index >= pics.size())
      fail(Errc::invalid_argument, "index " + std::to_string(index) + " is past the batch of " +
                                       std::to_string(pics.size()));
    pic = &pics[index];
  });
  return pic;
}

aclError acldvppDestroyBatchPicDesc(acldvppBatchPicDesc *batchPicDesc) {
  return guarded(__func__, [&] { delete checked(batchPicDesc, "batchPicDesc"); });
}

}  // extern "C"
