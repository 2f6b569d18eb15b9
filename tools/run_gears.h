// `openacl run` on a model with gears (atc --dynamic_batch_size, --dynamic_image_size,
// --dynamic_dims): the gears the model lists, and choosing one for a dataset.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "acl/acl.h"

namespace openacl_tool {

struct Gear {
  std::vector<std::vector<int64_t>> dims;  // per input before the gear input
  // Chooses the gear for a dataset (the aclmdlSetDynamic* call of its kind).
  std::function<aclError(uint32_t model, aclmdlDataset *ds, size_t gear_input)> choose;
};

// The model's gears, over its inputs' declared dims (-1 where gears set them); empty when
// the model has none.
std::vector<Gear> model_gears(const aclmdlDesc *desc,
                              const std::vector<std::vector<int64_t>> &declared);

// The last gear whose dims agree with `asked` (-1: any), or null.
const Gear *pick_gear(const std::vector<Gear> &gears,
                      const std::vector<std::vector<int64_t>> &asked);

}  // namespace openacl_tool
