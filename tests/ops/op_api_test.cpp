// aclopExecuteV2 and friends through the public C API: results computed on the stream, and
// every validation error with its exact aclError, a message, and nothing enqueued.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "ops/stream_fixture.h"

// The deprecated calls (aclGetTensorDescDim, aclGetDataBufferSize) are part of what is tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

class OpApi : public opt::StreamTest {
 protected:
  void TearDown() override {
    for (auto *d : descs_) aclDestroyTensorDesc(d);
    for (auto *b : bufs_) aclDestroyDataBuffer(b);
    StreamTest::TearDown();
  }
  aclTensorDesc *desc(aclDataType t, std::vector<int64_t> dims) {
    descs_.push_back(
        aclCreateTensorDesc(t, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND));
    return descs_.back();
  }
  aclDataBuffer *device_buffer(const void *host, size_t bytes) {
    void *p = alloc(bytes);
    if (host) {
      EXPECT_EQ(aclrtMemcpy(p, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    bufs_.push_back(aclCreateDataBuffer(p, bytes));
    return bufs_.back();
  }
  template <class T>
  std::vector<T> read(aclDataBuffer *b, size_t n) {
    std::vector<T> out(n);
    EXPECT_EQ(aclrtMemcpy(out.data(), n * sizeof(T), aclGetDataBufferAddr(b), n * sizeof(T),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return out;
  }
  std::vector<aclTensorDesc *> descs_;
  std::vector<aclDataBuffer *> bufs_;
};

TEST_F(OpApi, AddRunsOnTheStreamWithBroadcast) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {10, 20, 30};
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {2, 3}), desc(ACL_FLOAT, {3})};
  aclDataBuffer *ib[] = {device_buffer(a.data(), 24), device_buffer(b.data(), 12)};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {2, 3})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 24)};
  ASSERT_EQ(aclopExecuteV2("Add", 2, in, ib, 1, out, ob, nullptr, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(ob[0], 6), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST_F(OpApi, ASmallElementwiseOpOnAStreamAtRestRunsDuringTheCall) {
  // Nothing is queued on the stream: handing a 4-element Add to a worker and taking it back at
  // the synchronize costs more than running it, so it has run when the call returns.
  std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {4}), desc(ACL_FLOAT, {4})};
  aclDataBuffer *ib[] = {device_buffer(a.data(), 16), device_buffer(b.data(), 16)};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {4})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 16)};
  ASSERT_EQ(aclopExecuteV2("Add", 2, in, ib, 1, out, ob, nullptr, stream_), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  EXPECT_EQ(read<float>(ob[0], 4), (std::vector<float>{11, 22, 33, 44}));
}

TEST_F(OpApi, OpsRunInStreamOrderWithCopies) {
  // x -> Relu -> y, then a copy overwrites x and a second op reads it: order must hold.
  std::vector<float> x = {-1, 2, -3, 4}, x2 = {5, -6, 7, -8};
  aclTensorDesc *d[] = {desc(ACL_FLOAT, {4})};
  aclDataBuffer *xb[] = {device_buffer(x.data(), 16)};
  aclDataBuffer *y1[] = {device_buffer(nullptr, 16)}, *y2[] = {device_buffer(nullptr, 16)};
  void *pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 16), ACL_SUCCESS);
  std::memcpy(pinned, x2.data(), 16);
  ASSERT_EQ(aclopExecuteV2("Relu", 1, d, xb, 1, d, y1, nullptr, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(aclGetDataBufferAddr(xb[0]), 16, pinned, 16, ACL_MEMCPY_HOST_TO_DEVICE,
                             stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclopExecuteV2("Relu", 1, d, xb, 1, d, y2, nullptr, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(y1[0], 4), (std::vector<float>{0, 2, 0, 4}));
  EXPECT_EQ(read<float>(y2[0], 4), (std::vector<float>{5, 0, 7, 0}));
  aclrtFreeHost(pinned);
}

TEST_F(OpApi, RepeatedCallsOfOneOpEachKeepTheirOwnBuffers) {
  // A cached op's calls reuse the tensor lists of finished calls: every call must still read
  // and write its own buffers, whether the call before it finished (synchronized) or not
  // (queued behind it, or on a second stream run by another thread).
  std::vector<float> a = {1, 2}, b = {10, 20};
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {2}), desc(ACL_FLOAT, {2})};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {2})};
  aclDataBuffer *ib[] = {device_buffer(a.data(), 8), device_buffer(b.data(), 8)};
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  constexpr int kCalls = 12;
  std::vector<aclDataBuffer *> outs;
  for (int i = 0; i < kCalls; ++i) {
    std::vector<float> x = {float(i), float(100 * i)};
    aclDataBuffer *xb[] = {device_buffer(x.data(), 8), ib[1]};
    aclDataBuffer *ob[] = {device_buffer(nullptr, 8)};
    outs.push_back(ob[0]);
    ASSERT_EQ(aclopExecuteV2("Add", 2, in, xb, 1, out, ob, nullptr, i % 3 == 2 ? other : stream_),
              ACL_SUCCESS);
    if (i % 4 == 3) {
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  for (int i = 0; i < kCalls; ++i)
    EXPECT_EQ(read<float>(outs[i], 2), (std::vector<float>{i + 10.0f, 100.0f * i + 20}))
        << "call " << i;
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(OpApi, AttrsHandlesCastAndInferShape) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {2, 3})};
  aclDataBuffer *ib[] = {device_buffer(x.data(), 24)};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {3, 2})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 24)};
  aclopAttr *attr = aclopCreateAttr();
  const int64_t perm[] = {1, 0};
  ASSERT_EQ(aclopSetAttrListInt(attr, "perm", 2, perm), ACL_SUCCESS);
  aclopHandle *h = nullptr;
  ASSERT_EQ(aclopCreateHandle("TransposeD", 1, in, 1, out, attr, &h), ACL_SUCCESS);
  ASSERT_EQ(aclopExecWithHandle(h, 1, ib, 1, ob, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(ob[0], 6), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  aclopDestroyHandle(h);

  aclTensorDesc *inferred[] = {desc(ACL_DT_UNDEFINED, {})};
  ASSERT_EQ(aclopInferShape("TransposeD", 1, in, ib, 1, inferred, attr), ACL_SUCCESS);
  EXPECT_EQ(aclGetTensorDescNumDims(inferred[0]), 2u);
  EXPECT_EQ(aclGetTensorDescDim(inferred[0], 0), 3);
  EXPECT_EQ(aclGetTensorDescType(inferred[0]), ACL_FLOAT);
  aclopDestroyAttr(attr);

  aclTensorDesc *hd = desc(ACL_FLOAT16, {2, 3});
  aclDataBuffer *hb = device_buffer(nullptr, 12);
  ASSERT_EQ(aclopCast(in[0], ib[0], hd, hb, 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  auto h16 = read<aclFloat16>(hb, 6);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(aclFloat16ToFloat(h16[i]), x[i]);
}

TEST_F(OpApi, ConstInputsAreReadFromTensorDescs) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {2, 3}), desc(ACL_INT64, {1})};
  int64_t axes[] = {1};
  ASSERT_EQ(aclSetTensorConst(in[1], axes, sizeof(axes)), ACL_SUCCESS);
  aclDataBuffer *ib[] = {device_buffer(x.data(), 24), device_buffer(axes, 8)};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {2})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 8)};
  ASSERT_EQ(aclopExecuteV2("ReduceSum", 2, in, ib, 1, out, ob, nullptr, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(ob[0], 2), (std::vector<float>{6, 15}));
}

TEST_F(OpApi, ValidationErrorsAtTheCall) {
  std::vector<float> x(6, 1.0f);
  aclTensorDesc *f23 = desc(ACL_FLOAT, {2, 3});
  std::vector<float> sentinel(6, 42.0f);
  aclDataBuffer *xb = device_buffer(x.data(), 24), *yb = device_buffer(sentinel.data(), 24),
                *small = device_buffer(nullptr, 8);
  auto expect_err = [&](aclError want, const char *op, std::vector<aclTensorDesc *> in,
                        std::vector<aclDataBuffer *> ib, std::vector<aclTensorDesc *> out,
                        std::vector<aclDataBuffer *> ob, aclopAttr *attr = nullptr) {
    EXPECT_EQ(aclopExecuteV2(op, static_cast<int>(in.size()), in.data(), ib.data(),
                             static_cast<int>(out.size()), out.data(), ob.data(), attr, stream_),
              want)
        << op;
    EXPECT_GT(std::strlen(aclGetRecentErrMsg()), 0u) << op;
  };
  expect_err(ACL_ERROR_OP_TYPE_NOT_MATCH, "NoSuchOp", {f23}, {xb}, {f23}, {yb});
  expect_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "Add", {f23}, {xb}, {f23}, {yb});
  expect_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "Add", {f23, desc(ACL_INT32, {2, 3})}, {xb, xb}, {f23},
             {yb});
  expect_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "Add", {f23, desc(ACL_FLOAT, {2})}, {xb, xb}, {f23},
             {yb});
  expect_err(ACL_ERROR_OP_INPUT_NOT_MATCH, "Add", {f23, f23}, {xb, small}, {f23}, {yb});
  expect_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Add", {f23, f23}, {xb, xb}, {desc(ACL_FLOAT, {6})},
             {yb});
  expect_err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "Add", {f23, f23}, {xb, xb}, {f23}, {small});
  expect_err(ACL_ERROR_OP_ATTR_NOT_MATCH, "TransposeD", {f23}, {xb}, {desc(ACL_FLOAT, {3, 2})},
             {yb});
  expect_err(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "Sigmoid", {desc(ACL_INT32, {2, 3})}, {xb},
             {desc(ACL_INT32, {2, 3})}, {yb});
  std::vector<float> host(6);
  aclDataBuffer *hostb = aclCreateDataBuffer(host.data(), 24);
  expect_err(ACL_ERROR_INVALID_PARAM, "Add", {f23, f23}, {xb, hostb}, {f23}, {yb});
  aclDestroyDataBuffer(hostb);
  // Nothing was enqueued: the output still holds its sentinel.
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(yb, 6), sentinel);
}

TEST(TensorDescApi, PureDataCallsNeedNoInit) {
  const int64_t dims[] = {2, 3, 4};
  aclTensorDesc *d = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_NCHW);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(aclGetTensorDescElementCount(d), 24u);
  EXPECT_EQ(aclGetTensorDescSize(d), 48u);
  EXPECT_EQ(aclGetTensorDescFormat(d), ACL_FORMAT_NCHW);
  int64_t v = 0;
  EXPECT_EQ(aclGetTensorDescDimV2(d, 2, &v), ACL_SUCCESS);
  EXPECT_EQ(v, 4);
  EXPECT_EQ(aclGetTensorDescDimV2(d, 3, &v), ACL_ERROR_INVALID_PARAM);
  aclDestroyTensorDesc(d);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, -1, dims, ACL_FORMAT_ND), nullptr);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
  aclTensorDesc *s = aclCreateTensorDesc(ACL_INT64, 0, nullptr, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescElementCount(s), 1u);
  EXPECT_EQ(aclGetTensorDescNumDims(s), 0u);
  aclDestroyTensorDesc(s);
  const int64_t dyn[] = {-1, 3};
  aclTensorDesc *dd = aclCreateTensorDesc(ACL_FLOAT, 2, dyn, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescSize(dd), 0u);
  aclDestroyTensorDesc(dd);
  EXPECT_EQ(aclGetTensorDescType(nullptr), ACL_DT_UNDEFINED);
  EXPECT_EQ(aclGetTensorDescFormat(nullptr), ACL_FORMAT_UNDEFINED);

  aclDataBuffer *b = aclCreateDataBuffer(nullptr, 0);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(b), 0u);
  int x = 0;
  EXPECT_EQ(aclUpdateDataBuffer(b, &x, 4), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(b), &x);
  EXPECT_EQ(aclGetDataBufferSize(b), 4u);
  EXPECT_EQ(aclDestroyDataBuffer(b), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_GT(std::strlen(aclGetRecentErrMsg()), 0u);
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);

  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00);
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7c00);
  EXPECT_EQ(aclFloatToFloat16(5.9604645e-8f), 0x0001);
  EXPECT_EQ(aclFloat16ToFloat(0xc000), -2.0f);
  EXPECT_EQ(aclFloat16ToFloat(0x0001), 5.9604645e-8f);
}

TEST(CompileApi, AcceptedAndStored) {
  EXPECT_EQ(aclSetCompileopt(ACL_PRECISION_MODE, "allow_fp32_to_fp16"), ACL_SUCCESS);
  EXPECT_EQ(aclGetCompileoptSize(ACL_PRECISION_MODE), sizeof("allow_fp32_to_fp16"));
  char buf[64];
  EXPECT_EQ(aclGetCompileopt(ACL_PRECISION_MODE, buf, sizeof(buf)), ACL_SUCCESS);
  EXPECT_STREQ(buf, "allow_fp32_to_fp16");
  EXPECT_EQ(aclGetCompileopt(ACL_PRECISION_MODE, buf, 3), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclopSetCompileFlag(ACL_OP_COMPILE_FUZZ), ACL_SUCCESS);
  EXPECT_EQ(aclopSetModelDir(nullptr), ACL_ERROR_INVALID_PARAM);
}

}  // namespace

namespace {
TEST_F(OpApi, BadDataFailsTheStream) {
  std::vector<int32_t> a = {1, 2}, b = {1, 0};
  aclTensorDesc *d[] = {desc(ACL_INT32, {2}), desc(ACL_INT32, {2})};
  aclDataBuffer *ib[] = {device_buffer(a.data(), 8), device_buffer(b.data(), 8)};
  aclTensorDesc *od[] = {desc(ACL_INT32, {2})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 8)};
  ASSERT_EQ(aclopExecuteV2("Div", 2, d, ib, 1, od, ob, nullptr, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("division by zero"), std::string::npos)
      << aclGetRecentErrMsg();
}
}  // namespace

namespace {
TEST_F(OpApi, HostPlacedShapeInputWorksOnRepeatedCalls) {
  std::vector<float> x = {1, 2, 3, 4, 5, 6};
  int64_t axes[] = {0};
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {2, 3}), desc(ACL_INT64, {1})};
  ASSERT_EQ(aclSetTensorPlaceMent(in[1], ACL_MEMTYPE_HOST), ACL_SUCCESS);
  ASSERT_EQ(aclSetTensorConst(in[1], axes, sizeof(axes)), ACL_SUCCESS);
  aclDataBuffer *axes_host = aclCreateDataBuffer(axes, sizeof(axes));
  aclDataBuffer *ib[] = {device_buffer(x.data(), 24), axes_host};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {3})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 12)};
  for (int i = 0; i < 2; ++i) {  // the second call reuses the prepared op
    ASSERT_EQ(aclopExecuteV2("ReduceSum", 2, in, ib, 1, out, ob, nullptr, stream_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(read<float>(ob[0], 3), (std::vector<float>{5, 7, 9}));
  }
  aclDestroyDataBuffer(axes_host);
}

TEST_F(OpApi, OptionalInputLeftUnused) {
  // Conv2D without bias through the "unused optional input" convention (docs/RULES.md R17).
  std::vector<float> x(1 * 1 * 3 * 3, 1.0f), w(1 * 1 * 1 * 1, 2.0f);
  aclTensorDesc *in[] = {desc(ACL_FLOAT, {1, 1, 3, 3}), desc(ACL_FLOAT, {1, 1, 1, 1}),
                         aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, nullptr, ACL_FORMAT_UNDEFINED)};
  descs_.push_back(in[2]);
  aclDataBuffer *none = aclCreateDataBuffer(nullptr, 0);
  bufs_.push_back(none);
  aclDataBuffer *ib[] = {device_buffer(x.data(), 36), device_buffer(w.data(), 4), none};
  aclTensorDesc *out[] = {desc(ACL_FLOAT, {1, 1, 3, 3})};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 36)};
  aclopAttr *attr = aclopCreateAttr();
  const int64_t ones[] = {1, 1, 1, 1}, zeros[] = {0, 0, 0, 0};
  aclopSetAttrListInt(attr, "strides", 4, ones);
  aclopSetAttrListInt(attr, "pads", 4, zeros);
  ASSERT_EQ(aclopExecuteV2("Conv2D", 3, in, ib, 1, out, ob, attr, stream_), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(read<float>(ob[0], 9), std::vector<float>(9, 2.0f));
  aclopDestroyAttr(attr);
}

TEST_F(OpApi, Conv2DWithNhwcDescriptors) {
  // x NHWC [1, 2, 2, 3], x[h][w][c] = 4 * (2h + w) + c; a 1x1 NCHW filter [2, 3, 1, 1] with
  // w[o][c] = o + 1 + c: y[h][w][o] = sum over c of x * w, exact in float16.
  std::vector<aclFloat16> x, w;
  std::vector<float> want;
  for (int p = 0; p < 4; ++p)
    for (int c = 0; c < 3; ++c) x.push_back(aclFloatToFloat16(static_cast<float>(4 * p + c)));
  for (int o = 0; o < 2; ++o)
    for (int c = 0; c < 3; ++c) w.push_back(aclFloatToFloat16(static_cast<float>(o + 1 + c)));
  for (int p = 0; p < 4; ++p)
    for (int o = 0; o < 2; ++o)
      want.push_back(static_cast<float>((4 * p) * (3 * o + 6) + (o + 1) * 3 + 5));
  const int64_t xd[] = {1, 2, 2, 3}, wd[] = {2, 3, 1, 1}, yd[] = {1, 2, 2, 2};
  aclTensorDesc *in[] = {aclCreateTensorDesc(ACL_FLOAT16, 4, xd, ACL_FORMAT_NHWC),
                         aclCreateTensorDesc(ACL_FLOAT16, 4, wd, ACL_FORMAT_NCHW)};
  aclTensorDesc *out[] = {aclCreateTensorDesc(ACL_FLOAT16, 4, yd, ACL_FORMAT_NHWC)};
  descs_.insert(descs_.end(), {in[0], in[1], out[0]});
  aclDataBuffer *ib[] = {device_buffer(x.data(), x.size() * 2),
                         device_buffer(w.data(), w.size() * 2)};
  aclDataBuffer *ob[] = {device_buffer(nullptr, 16)};
  aclopAttr *attr = aclopCreateAttr();
  const int64_t ones[] = {1, 1, 1, 1}, zeros[] = {0, 0, 0, 0};
  aclopSetAttrListInt(attr, "strides", 4, ones);
  aclopSetAttrListInt(attr, "pads", 4, zeros);
  ASSERT_EQ(aclopCompileAndExecute("Conv2D", 2, in, ib, 1, out, ob, attr, ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream_),
            ACL_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  std::vector<float> got;
  for (aclFloat16 v : read<aclFloat16>(ob[0], 8)) got.push_back(aclFloat16ToFloat(v));
  EXPECT_EQ(got, want);
  // The same call told data_format NCHW contradicts x's format.
  aclopSetAttrString(attr, "data_format", "NCHW");
  EXPECT_EQ(aclopCompileAndExecute("Conv2D", 2, in, ib, 1, out, ob, attr, ACL_ENGINE_SYS,
                                   ACL_COMPILE_SYS, nullptr, stream_),
            ACL_ERROR_OP_ATTR_NOT_MATCH);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("data_format"), std::string::npos);
  aclopDestroyAttr(attr);
}
}  // namespace

namespace {
TEST_F(OpApi, TwoStreamsRunOneDnnOpsConcurrently) {
  // Each stream: y = x1 @ x2 (oneDNN, OpenMP team of its worker) then y + y (AI cores).
  const int64_t n = 64;
  std::vector<float> a(n * n, 1.0f), b(n * n, 0.5f);
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  aclTensorDesc *d[] = {desc(ACL_FLOAT, {n, n}), desc(ACL_FLOAT, {n, n})};
  aclTensorDesc *od[] = {desc(ACL_FLOAT, {n, n})};
  std::vector<aclDataBuffer *> results;
  for (aclrtStream s : {stream_, other}) {
    aclDataBuffer *ib[] = {device_buffer(a.data(), n * n * 4), device_buffer(b.data(), n * n * 4)};
    aclDataBuffer *mb[] = {device_buffer(nullptr, n * n * 4)};
    aclDataBuffer *yb[] = {device_buffer(nullptr, n * n * 4)};
    for (int rep = 0; rep < 20; ++rep) {
      ASSERT_EQ(aclopExecuteV2("MatMul", 2, d, ib, 1, od, mb, nullptr, s), ACL_SUCCESS);
      aclDataBuffer *ab[] = {mb[0], mb[0]};
      ASSERT_EQ(aclopExecuteV2("Add", 2, d, ab, 1, od, yb, nullptr, s), ACL_SUCCESS);
    }
    results.push_back(yb[0]);
  }
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (auto *r : results)
    EXPECT_EQ(read<float>(r, n * n), std::vector<float>(n * n, 2.0f * 0.5f * n));
  ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}
}  // namespace
