// The aclnn argument objects of acl_meta.h: plain values owned by the caller. Each carries a
// tag checked on every use (a cheap guard against a wrong or destroyed pointer). Executors copy
// what they need from them at planning time, so nothing here outlives its C handle.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ops/op.h"

namespace openacl::nn {

constexpr size_t kMaxDims = 8;

enum class Tag : uint32_t {
  tensor = 0x6e54656e,  // "neTn"
  scalar = 0x6e536361,
  int_array = 0x6e496e74,
  float_array = 0x6e466c74,
  bool_array = 0x6e426f6f,
  tensor_list = 0x6e544c73,
  scalar_list = 0x6e534c73,
  dead = 0xdeadbeef,
};

// ACL_INT4: two elements a byte, the even element in the low nibble. Only
// WeightQuantBatchMatmulV2 takes it (as weights); no library op does.
constexpr ops::DType kInt4 = static_cast<ops::DType>(29);

// The element size of an aclnn dtype in bytes (0 for int4 and for dtypes openacl has no
// kernels for), and in bits (4 for int4).
size_t element_size(ops::DType t);
size_t element_bits(ops::DType t);

// A strided view: shape, strides and offset in elements.
struct View {
  std::vector<int64_t> dims, strides;
  int64_t offset = 0;
  int64_t numel() const;
  bool contiguous() const;  // dense row-major (size-1 dims may have any stride)
  // Elements from the first to one past the last that the view reaches (0 when empty).
  int64_t extent() const;
  // No two indices share an element: outputs must be such views.
  bool overlaps() const;
};

// A tensor's part of a plan key (nn/plan_cache.h), written by init_tensor as it reads the view:
// one word of format, dtype, flags and the dim count, the dims, the strides unless dense, the
// offset unless 0; the storage dims follow in the key when they differ from the view's dims.
struct TensorKey {
  enum : uint64_t { kStrided = 1 << 8, kOffset = 2 << 8, kOwnStorage = 4 << 8 };
  uint64_t words[2 + 2 * kMaxDims];
  uint32_t size = 0;  // words used
  bool own_storage = false;
};

std::vector<int64_t> dense_strides(const std::vector<int64_t> &dims);
void dense_strides(const std::vector<int64_t> &dims, std::vector<int64_t> &out);  // in place

}  // namespace openacl::nn

struct aclTensor {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::tensor;
  static constexpr const char *kName = "aclTensor";
  openacl::nn::Tag tag = kTag;  // Tag::dead once destroyed
  openacl::ops::DType dtype = openacl::ops::DType::f32;
  int32_t format = 2;  // ACL_FORMAT_ND
  openacl::nn::View view;
  std::vector<int64_t> storage_dims;
  void *data = nullptr;
  openacl::nn::TensorKey key;
};

struct aclScalar {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::scalar;
  static constexpr const char *kName = "aclScalar";
  openacl::nn::Tag tag = kTag;  // Tag::dead once destroyed
  openacl::ops::DType dtype = openacl::ops::DType::f32;
  double value =
      0;  // every supported scalar dtype converts to double without loss but i64/u64 past 2^53
  int64_t int_value = 0;
  bool is_int() const;
};

struct aclIntArray {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::int_array;
  static constexpr const char *kName = "aclIntArray";
  openacl::nn::Tag tag = kTag;  // Tag::dead once destroyed
  std::vector<int64_t> values;
};
struct aclFloatArray {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::float_array;
  static constexpr const char *kName = "aclFloatArray";
  openacl::nn::Tag tag = kTag;  // Tag::dead once destroyed
  std::vector<float> values;
};
struct aclBoolArray {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::bool_array;
  static constexpr const char *kName = "aclBoolArray";
  openacl::nn::Tag tag = kTag;  // Tag::dead once destroyed
  std::vector<bool> values;
};
struct aclTensorList {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::tensor_list;
  static constexpr const char *kName = "aclTensorList";
  openacl::nn::Tag tag = kTag;       // Tag::dead once destroyed
  std::vector<aclTensor *> tensors;  // owned: aclDestroyTensorList destroys them
};
struct aclScalarList {
  static constexpr openacl::nn::Tag kTag = openacl::nn::Tag::scalar_list;
  static constexpr const char *kName = "aclScalarList";
  openacl::nn::Tag tag = kTag;       // Tag::dead once destroyed
  std::vector<aclScalar *> scalars;  // owned
};

namespace openacl::nn {

// Builds a tensor from aclCreateTensor's arguments; throws Error naming what is wrong.
void init_tensor(aclTensor &t, const int64_t *view_dims, uint64_t num_view_dims, int32_t dtype,
                 const int64_t *strides, int64_t offset, int32_t format,
                 const int64_t *storage_dims, uint64_t num_storage_dims, void *data);
// aclTensor and aclScalar objects for aclCreateTensor / aclCreateScalar, and their end: ggml
// makes and destroys three or four tensors and a scalar per operator call, so a thread keeps
// the ones it destroyed (their vectors' storage too) for its next ones instead of allocating
// each (nn/thread_scratch.h). Under AddressSanitizer each is a plain allocation, so that a use
// after aclDestroyTensor is still caught.
aclTensor *new_tensor();
struct TensorDeleter {
  void operator()(aclTensor *t) const noexcept;
};
aclScalar *new_scalar();
struct ScalarDeleter {
  void operator()(aclScalar *s) const noexcept;
};
// Reads a scalar of an aclnn dtype from host memory.
void init_scalar(aclScalar &s, const void *value, int32_t dtype);

// Checked access: NULL fails with Errc::null_pointer, an object without its tag (destroyed,
// or not an aclnn object of that type) with Errc::invalid_argument; both name `what`.
template <class T>
const T &checked(const T *p, const char *what) {
  if (p == nullptr) fail(Errc::null_pointer, std::string(what) + " is NULL");
  if (p->tag != T::kTag)
    fail(Errc::invalid_argument, std::string(what) + " is not a live " + T::kName);
  return *p;
}

// The scalar's value as `dtype` bytes (a 0-d constant for the kernels).
std::vector<uint8_t> scalar_bytes(const aclScalar &s, ops::DType dtype);
std::string view_str(const aclTensor &t);  // "f16[2,3] strides [3,1] offset 0"

}  // namespace openacl::nn
