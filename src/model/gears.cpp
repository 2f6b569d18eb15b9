#include "model/gears.h"

namespace openacl::model {

std::vector<std::vector<int64_t>> Gears::dims_of(size_t gear) const {
  std::vector<std::vector<int64_t>> dims = shapes;
  const auto &v = values.at(gear);
  size_t next = 0;
  for (auto &input : dims) {
    if (kind == GearKind::image_size) next = 0;  // each input takes (h, w)
    for (auto &d : input) {
      if (d >= 0) continue;
      d = kind == GearKind::batch ? v[0] : v.at(next);
      ++next;
    }
  }
  return dims;
}

size_t Gears::find(const std::vector<std::vector<int64_t>> &dims) const {
  for (size_t g = 0; g < values.size(); ++g)
    if (dims_of(g) == dims) return g;
  return npos;
}

size_t Gears::find_values(const std::vector<int64_t> &v) const {
  for (size_t g = 0; g < values.size(); ++g)
    if (values[g] == v) return g;
  return npos;
}

const char *gear_option(GearKind kind) {
  switch (kind) {
    case GearKind::batch:
      return "--dynamic_batch_size";
    case GearKind::image_size:
      return "--dynamic_image_size";
    case GearKind::dims:
      return "--dynamic_dims";
    case GearKind::none:
      break;
  }
  return "";
}

}  // namespace openacl::model
