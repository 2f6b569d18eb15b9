#include "model/graph.h"

namespace openacl::model {

int Graph::add_value(std::string name, ops::TensorDesc desc,
                     std::shared_ptr<const HostTensor> constant) {
  values.push_back({std::move(name), std::move(desc), std::move(constant)});
  return static_cast<int>(values.size() - 1);
}

std::vector<int64_t> HostTensor::to_ints() const {
  const int64_t n = desc.element_count();
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    switch (desc.dtype) {
      case ops::DType::i64:
        out[i] = as<int64_t>()[i];
        break;
      case ops::DType::i32:
        out[i] = as<int32_t>()[i];
        break;
      case ops::DType::i16:
        out[i] = as<int16_t>()[i];
        break;
      case ops::DType::i8:
        out[i] = as<int8_t>()[i];
        break;
      case ops::DType::u8:
        out[i] = as<uint8_t>()[i];
        break;
      case ops::DType::boolean:
        out[i] = as<uint8_t>()[i] != 0;
        break;
      case ops::DType::u32:
        out[i] = as<uint32_t>()[i];
        break;
      case ops::DType::u64:
        out[i] = static_cast<int64_t>(as<uint64_t>()[i]);
        break;
      default:
        fail(Errc::parse_model,
             std::string("expected an integer tensor, got ") + ops::dtype_name(desc.dtype));
    }
  }
  return out;
}

std::vector<float> HostTensor::to_floats() const {
  const int64_t n = desc.element_count();
  std::vector<float> out(static_cast<size_t>(n));
  if (desc.dtype == ops::DType::f32) {
    for (int64_t i = 0; i < n; ++i) out[i] = as<float>()[i];
  } else if (desc.dtype == ops::DType::f64) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(as<double>()[i]);
  } else {
    const std::vector<int64_t> ints = to_ints();
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(ints[i]);
  }
  return out;
}

}  // namespace openacl::model
