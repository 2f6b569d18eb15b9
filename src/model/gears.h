// Gears: the fixed input shapes a converted model accepts (atc --dynamic_batch_size,
// --dynamic_image_size, --dynamic_dims), as CANN's .om has them. The inputs' dims from
// --input_shape hold -1 where a gear sets the value; each gear lists those values:
//   batch:      {b}    sets every -1 (each input's batch dim) to b
//   image_size: {h, w} sets each input's two -1 dims to h and w
//   dims:       {...}  sets the -1 dims of all inputs, in input order
// The caller picks a gear per execution through the extra input ascend_mbatch_shape_data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace openacl::model {

enum class GearKind { none, batch, image_size, dims };

struct Gears {
  GearKind kind = GearKind::none;
  std::vector<std::vector<int64_t>> values;  // per gear
  std::vector<std::vector<int64_t>> shapes;  // per graph input: dims with -1 where gears set them

  bool empty() const { return kind == GearKind::none; }
  // Elements of ascend_mbatch_shape_data (one per gear value).
  size_t value_count() const { return values.empty() ? 0 : values[0].size(); }
  std::vector<std::vector<int64_t>> dims_of(size_t gear) const;
  // The gear with these input dims, or npos.
  size_t find(const std::vector<std::vector<int64_t>> &dims) const;
  // The gear with these values (what aclmdlSetDynamic* give), or npos.
  size_t find_values(const std::vector<int64_t> &values) const;
  static constexpr size_t npos = static_cast<size_t>(-1);
};

// The option name of a gear kind, for messages ("--dynamic_batch_size").
const char *gear_option(GearKind kind);

}  // namespace openacl::model
