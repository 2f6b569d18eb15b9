#include "nn/objects.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>

#include "nn/thread_scratch.h"
#include "ops/half.h"

namespace openacl::nn {

size_t element_size(ops::DType t) {
  switch (t) {
    case ops::DType::f32:
    case ops::DType::i32:
    case ops::DType::u32:
      return 4;
    case ops::DType::f16:
    case ops::DType::bf16:
    case ops::DType::i16:
    case ops::DType::u16:
      return 2;
    case ops::DType::i8:
    case ops::DType::u8:
    case ops::DType::boolean:
      return 1;
    case ops::DType::i64:
    case ops::DType::u64:
    case ops::DType::f64:
      return 8;
    default:
      return 0;
  }
}

size_t element_bits(ops::DType t) { return t == kInt4 ? 4 : 8 * element_size(t); }

void dense_strides(const std::vector<int64_t> &dims, std::vector<int64_t> &out) {
  out.assign(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) out[i - 1] = out[i] * std::max<int64_t>(dims[i], 1);
}

std::vector<int64_t> dense_strides(const std::vector<int64_t> &dims) {
  std::vector<int64_t> s;
  dense_strides(dims, s);
  return s;
}

int64_t View::numel() const {
  return std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>());
}

bool View::contiguous() const {
  int64_t expect = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    if (dims[i] != 1 && strides[i] != expect) return false;
    expect *= dims[i];
  }
  return true;
}

int64_t View::extent() const {
  if (numel() == 0) return 0;
  int64_t last = 0;
  for (size_t i = 0; i < dims.size(); ++i) last += (dims[i] - 1) * strides[i];
  return last + 1;
}

bool View::overlaps() const {
  if (numel() == 0) return false;  // no elements, nothing to collide
  // Sorted by stride, each dim must step past everything the smaller dims reach.
  std::vector<size_t> order;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] > 1) order.push_back(i);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return strides[a] < strides[b]; });
  int64_t reach = 0;  // the largest element offset the smaller dims reach
  for (size_t i : order) {
    if (strides[i] <= reach) return true;
    reach += (dims[i] - 1) * strides[i];
  }
  return false;
}

namespace {

// What is wrong with aclCreateTensor's arguments other than the view's values, in the order
// checked.
[[noreturn, gnu::cold]] void bad_tensor_arguments(const int64_t *view_dims, uint64_t num_view_dims,
                                                  int32_t dtype, int64_t offset,
                                                  const int64_t *storage_dims,
                                                  uint64_t num_storage_dims) {
  if (num_view_dims > kMaxDims)
    fail(Errc::invalid_argument, "viewDimsNum " + std::to_string(num_view_dims) +
                                     " exceeds the 8 dimensions aclnn supports");
  if (view_dims == nullptr && num_view_dims > 0)
    fail(Errc::null_pointer,
         "viewDims is NULL while viewDimsNum is " + std::to_string(num_view_dims));
  if (storage_dims == nullptr && num_storage_dims > 0)
    fail(Errc::null_pointer,
         "storageDims is NULL while storageDimsNum is " + std::to_string(num_storage_dims));
  const auto type = static_cast<ops::DType>(dtype);
  if (element_bits(type) == 0)
    fail(Errc::invalid_argument,
         "dataType " + std::to_string(dtype) + " is not a data type openacl's aclnn supports");
  if (offset < 0) fail(Errc::invalid_argument, "offset " + std::to_string(offset) + " is negative");
  fail(Errc::invalid_argument,
       "offset " + std::to_string(offset) + " of an int4 tensor must be even (whole bytes)");
}

// The first negative dim, else the first negative stride, of aclCreateTensor's arguments.
[[noreturn, gnu::cold]] void bad_view_value(const int64_t *view_dims, const int64_t *strides,
                                            size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (view_dims[i] < 0)
      fail(Errc::invalid_argument, "viewDims[" + std::to_string(i) + "] is negative (" +
                                       std::to_string(view_dims[i]) + ")");
  for (size_t i = 0; strides != nullptr && i < n; ++i)
    if (strides[i] < 0)
      fail(Errc::invalid_argument,
           "stride[" + std::to_string(i) + "] is negative (" + std::to_string(strides[i]) + ")");
  fail(Errc::invalid_argument, "viewDims " +
                                   ops::dims_str(std::vector<int64_t>(view_dims, view_dims + n)) +
                                   " hold more elements than an int64 counts");
}

}  // namespace

void init_tensor(aclTensor &t, const int64_t *view_dims, uint64_t num_view_dims, int32_t dtype,
                 const int64_t *strides, int64_t offset, int32_t format,
                 const int64_t *storage_dims, uint64_t num_storage_dims, void *data) {
  const auto type = static_cast<ops::DType>(dtype);
  if (num_view_dims > kMaxDims || (view_dims == nullptr && num_view_dims > 0) ||
      (storage_dims == nullptr && num_storage_dims > 0) || element_bits(type) == 0 || offset < 0 ||
      (type == kInt4 && offset % 2 != 0))
    bad_tensor_arguments(view_dims, num_view_dims, dtype, offset, storage_dims, num_storage_dims);
  // Assigned in place, element by element in one pass (a reused tensor keeps its vectors'
  // storage; a few dims, where a call to memmove costs more than the copy: ggml makes three
  // tensors per operator call), with the tensor's part of a plan key (TensorKey). A negative
  // value, or more elements than int64 counts, fails in bad_view_value, which names it.
  View &v = t.view;
  TensorKey &key = t.key;
  const size_t n = num_view_dims;
  if (v.dims.size() != n) v.dims.resize(n);
  if (v.strides.size() != n) v.strides.resize(n);
  int64_t dense = 1;
  bool strided = false;
  for (size_t i = n; i-- > 0;) {
    const int64_t d = view_dims[i], s = strides != nullptr ? strides[i] : dense;
    strided |= s != dense;
    if ((d | s) < 0 || __builtin_mul_overflow(dense, std::max<int64_t>(d, 1), &dense))
      bad_view_value(view_dims, strides, n);
    v.dims[i] = d;
    v.strides[i] = s;
    key.words[1 + i] = static_cast<uint64_t>(d);
    key.words[1 + n + i] = static_cast<uint64_t>(s);
  }
  v.offset = offset;
  t.dtype = type;
  t.format = format;
  auto &storage = t.storage_dims;
  if (storage.size() != num_storage_dims) storage.resize(num_storage_dims);
  bool own_storage = num_storage_dims != n;
  for (size_t i = 0; i < num_storage_dims; ++i) {
    storage[i] = storage_dims[i];
    own_storage |= i < n && storage_dims[i] != view_dims[i];
  }
  t.data = data;
  size_t size = strided ? 1 + 2 * n : 1 + n;
  if (offset != 0) key.words[size++] = static_cast<uint64_t>(offset);
  key.words[0] = uint64_t{static_cast<uint32_t>(format)} << 32 |
                 uint64_t{static_cast<uint16_t>(type)} << 16 | (strided ? TensorKey::kStrided : 0) |
                 (offset != 0 ? TensorKey::kOffset : 0) |
                 (own_storage ? TensorKey::kOwnStorage : 0) | n;
  key.size = static_cast<uint32_t>(size);
  key.own_storage = own_storage;
}

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kReuseObjects = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kReuseObjects = false;
#else
constexpr bool kReuseObjects = true;
#endif
#else
constexpr bool kReuseObjects = true;
#endif

// Takes a spare object of this thread, or makes one.
template <class T>
T *take_spare(std::vector<T *> &spare) {
  if (!kReuseObjects || spare.empty()) return new T;
  T *t = spare.back();
  spare.pop_back();
  t->tag = T::kTag;
  return t;
}

template <class T>
void keep_spare(std::vector<T *> &spare, T *t) noexcept {
  t->tag = Tag::dead;
  if (kReuseObjects && spare.size() < ThreadScratch::kMaxSpares) spare.push_back(t);
  else delete t;
}

}  // namespace

aclTensor *new_tensor() { return take_spare(thread_scratch().tensors); }
void TensorDeleter::operator()(aclTensor *t) const noexcept {
  keep_spare(thread_scratch().tensors, t);
}
aclScalar *new_scalar() { return take_spare(thread_scratch().scalars); }
void ScalarDeleter::operator()(aclScalar *s) const noexcept {
  keep_spare(thread_scratch().scalars, s);
}

void init_scalar(aclScalar &s, const void *value, int32_t dtype) {
  if (value == nullptr) fail(Errc::null_pointer, "value is NULL");
  const auto type = static_cast<ops::DType>(dtype);
  auto read = [&](auto v) {
    s.value = static_cast<double>(v);
    s.int_value = static_cast<int64_t>(v);
  };
  const auto *p = static_cast<const uint8_t *>(value);
  auto load = [&](auto tag) {
    decltype(tag) v;
    std::memcpy(&v, p, sizeof v);
    read(v);
  };
  switch (type) {
    case ops::DType::f32:
      load(float{});
      break;
    case ops::DType::f64:
      load(double{});
      break;
    case ops::DType::f16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      read(ops::half_to_float(h));
      break;
    }
    case ops::DType::bf16: {
      uint16_t h;
      std::memcpy(&h, p, 2);
      read(ops::bf16_to_float(h));
      break;
    }
    case ops::DType::i8:
      load(int8_t{});
      break;
    case ops::DType::u8:
      load(uint8_t{});
      break;
    case ops::DType::i16:
      load(int16_t{});
      break;
    case ops::DType::u16:
      load(uint16_t{});
      break;
    case ops::DType::i32:
      load(int32_t{});
      break;
    case ops::DType::u32:
      load(uint32_t{});
      break;
    case ops::DType::i64:
      load(int64_t{});
      break;
    case ops::DType::u64:
      load(uint64_t{});
      break;
    case ops::DType::boolean:
      load(bool{});
      break;
    default:
      fail(Errc::invalid_argument,
           "dataType " + std::to_string(dtype) + " is not a data type openacl's aclnn supports");
  }
  s.dtype = type;
}

std::vector<uint8_t> scalar_bytes(const aclScalar &s, ops::DType dtype) {
  std::vector<uint8_t> out(element_size(dtype));
  auto put = [&](auto v) { std::memcpy(out.data(), &v, sizeof v); };
  const bool integral = s.is_int();
  auto as = [&](auto tag) {
    return integral ? static_cast<decltype(tag)>(s.int_value) : static_cast<decltype(tag)>(s.value);
  };
  switch (dtype) {
    case ops::DType::f32:
      put(static_cast<float>(s.value));
      break;
    case ops::DType::f64:
      put(s.value);
      break;
    case ops::DType::f16:
      put(ops::float_to_half(static_cast<float>(s.value)));
      break;
    case ops::DType::bf16:
      put(ops::float_to_bf16(static_cast<float>(s.value)));
      break;
    case ops::DType::i8:
      put(as(int8_t{}));
      break;
    case ops::DType::u8:
      put(as(uint8_t{}));
      break;
    case ops::DType::i16:
      put(as(int16_t{}));
      break;
    case ops::DType::u16:
      put(as(uint16_t{}));
      break;
    case ops::DType::i32:
      put(as(int32_t{}));
      break;
    case ops::DType::u32:
      put(as(uint32_t{}));
      break;
    case ops::DType::i64:
      put(as(int64_t{}));
      break;
    case ops::DType::u64:
      put(as(uint64_t{}));
      break;
    case ops::DType::boolean:
      put(static_cast<uint8_t>(s.value != 0));
      break;
    default:
      fail(Errc::invalid_argument, std::string("no scalar of dtype ") + ops::dtype_name(dtype));
  }
  return out;
}

std::string view_str(const aclTensor &t) {
  return std::string(ops::dtype_name(t.dtype)) + ops::dims_str(t.view.dims) + " strides " +
         ops::dims_str(t.view.strides) + " offset " + std::to_string(t.view.offset);
}

}  // namespace openacl::nn

bool aclScalar::is_int() const {
  using openacl::ops::DType;
  return dtype != DType::f32 && dtype != DType::f16 && dtype != DType::bf16 && dtype != DType::f64;
}
