// A stream on device 0 and helpers for aclnn tests: tensors over fresh device buffers (any
// strides and offset), both phases of an operator with a workspace, and reading buffers back.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnn/aclnn_base.h"
#include "ops/half.h"
#include "ops/stream_fixture.h"

class AclnnTest : public opt::StreamTest {
 protected:
  void TearDown() override {
    for (aclScalar *s : scalars_) aclDestroyScalar(s);
    for (aclIntArray *a : arrays_) aclDestroyIntArray(a);
    for (aclTensor *t : tensors_) aclDestroyTensor(t);
    tensors_.clear();
    StreamTest::TearDown();
    dev_.clear();
  }

  void *upload(const void *data, size_t bytes) {
    void *p = alloc(std::max<size_t>(bytes, 1));
    if (bytes)
      EXPECT_EQ(aclrtMemcpy(p, bytes, data, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    return p;
  }

  // A tensor of dtype T over a device copy of `storage`, viewed as dims / strides / offset
  // (strides empty: dense).
  template <class T>
  aclTensor *tensor(const std::vector<T> &storage, std::vector<int64_t> dims,
                    std::vector<int64_t> strides = {}, int64_t offset = 0,
                    aclDataType dtype = dtype_of<T>()) {
    void *p = upload(storage.data(), storage.size() * sizeof(T));
    const int64_t n = static_cast<int64_t>(storage.size());
    aclTensor *t =
        aclCreateTensor(dims.data(), dims.size(), dtype, strides.empty() ? nullptr : strides.data(),
                        offset, ACL_FORMAT_ND, &n, 1, p);
    EXPECT_NE(t, nullptr) << aclGetRecentErrMsg();
    tensors_.push_back(t);
    return t;
  }

  // A float scalar and an int array, destroyed at the end of the test.
  aclScalar *scalar(float v) {
    scalars_.push_back(aclCreateScalar(&v, ACL_FLOAT));
    return scalars_.back();
  }
  aclIntArray *ints(std::vector<int64_t> v) {
    arrays_.push_back(aclCreateIntArray(v.data(), v.size()));
    return arrays_.back();
  }
  // A tensor list that owns its tensors (they leave the fixture's list).
  aclTensorList *list(std::vector<aclTensor *> ts) {
    for (aclTensor *t : ts) tensors_.erase(std::find(tensors_.begin(), tensors_.end(), t));
    std::vector<const aclTensor *> c(ts.begin(), ts.end());
    return aclCreateTensorList(c.data(), c.size());
  }

  // The whole buffer under t, as T.
  template <class T>
  std::vector<T> read(const aclTensor *t) {
    int64_t *dims = nullptr;
    uint64_t n = 0;
    EXPECT_EQ(aclGetStorageShape(t, &dims, &n), ACLNN_SUCCESS);
    std::vector<T> v(static_cast<size_t>(dims[0]));
    delete[] dims;
    void *addr = nullptr;
    EXPECT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(v.data(), v.size() * sizeof(T), addr, v.size() * sizeof(T),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return v;
  }

  // Both phases of an operator, then a stream sync; the first failing status.
  template <class Plan, class Run, class... A>
  aclnnStatus run(Plan plan, Run exec, A... args) {
    uint64_t ws = 0;
    aclOpExecutor *e = nullptr;
    aclnnStatus s = plan(args..., &ws, &e);
    if (s != ACLNN_SUCCESS) return s;
    void *w = nullptr;
    if (ws > 0) EXPECT_EQ(aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    if (w) dev_.push_back(w);
    s = exec(w, ws, e, stream_);
    if (s != ACLNN_SUCCESS) return s;
    return aclrtSynchronizeStream(stream_);
  }

  // Phase 1 only: its status (the executor, if any, is destroyed).
  template <class Plan, class... A>
  aclnnStatus plan_only(Plan plan, A... args) {
    uint64_t ws = 0;
    aclOpExecutor *e = nullptr;
    aclnnStatus s = plan(args..., &ws, &e);
    if (s == ACLNN_SUCCESS) aclDestroyAclOpExecutor(e);
    return s;
  }

  template <class T>
  static constexpr aclDataType dtype_of() {
    if constexpr (std::is_same_v<T, float>) return ACL_FLOAT;
    else if constexpr (std::is_same_v<T, int32_t>) return ACL_INT32;
    else if constexpr (std::is_same_v<T, int64_t>) return ACL_INT64;
    else if constexpr (std::is_same_v<T, int8_t>) return ACL_INT8;
    else if constexpr (std::is_same_v<T, uint8_t>) return ACL_UINT8;
    else if constexpr (std::is_same_v<T, uint16_t>) return ACL_FLOAT16;
    else return ACL_DOUBLE;
  }

  static std::vector<uint16_t> to_f16(const std::vector<float> &v) {
    std::vector<uint16_t> out;
    for (float f : v) out.push_back(openacl::ops::float_to_half(f));
    return out;
  }
  static std::vector<float> from_f16(const std::vector<uint16_t> &v) {
    std::vector<float> out;
    for (uint16_t h : v) out.push_back(openacl::ops::half_to_float(h));
    return out;
  }

  std::vector<aclTensor *> tensors_;
  std::vector<aclScalar *> scalars_;
  std::vector<aclIntArray *> arrays_;
};
