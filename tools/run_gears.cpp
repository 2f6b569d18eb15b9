#include "run_gears.h"

namespace openacl_tool {
namespace {

// The declared dims with the -1s set from `values`: all of them to values[0] (batch), each
// input's pair to (h, w) (image size), or one after another (dims).
std::vector<std::vector<int64_t>> fill(std::vector<std::vector<int64_t>> dims,
                                       const std::vector<int64_t> &values, bool per_input) {
  size_t next = 0;
  for (auto &input : dims) {
    if (per_input) next = 0;
    for (auto &d : input)
      if (d < 0) d = values.size() == 1 ? values[0] : values.at(next++);
  }
  return dims;
}

}  // namespace

std::vector<Gear> model_gears(const aclmdlDesc *desc,
                              const std::vector<std::vector<int64_t>> &declared) {
  std::vector<Gear> gears;
  aclmdlBatch batch{};
  if (aclmdlGetDynamicBatch(desc, &batch) == ACL_SUCCESS)
    for (size_t i = 0; i < batch.batchCount; ++i) {
      const uint64_t b = batch.batch[i];
      gears.push_back({fill(declared, {static_cast<int64_t>(b)}, false),
                       [b](uint32_t m, aclmdlDataset *ds, size_t at) {
                         return aclmdlSetDynamicBatchSize(m, ds, at, b);
                       }});
    }
  aclmdlHW hw{};
  if (aclmdlGetDynamicHW(desc, 0, &hw) == ACL_SUCCESS)
    for (size_t i = 0; i < hw.hwCount; ++i) {
      const uint64_t h = hw.hw[i][0], w = hw.hw[i][1];
      gears.push_back({fill(declared, {static_cast<int64_t>(h), static_cast<int64_t>(w)}, true),
                       [h, w](uint32_t m, aclmdlDataset *ds, size_t at) {
                         return aclmdlSetDynamicHWSize(m, ds, at, h, w);
                       }});
    }
  size_t count = 0;
  if (aclmdlGetInputDynamicGearCount(desc, static_cast<size_t>(-1), &count) == ACL_SUCCESS &&
      count > 0) {
    std::vector<aclmdlIODims> all(count);
    if (aclmdlGetInputDynamicDims(desc, static_cast<size_t>(-1), all.data(), count) != ACL_SUCCESS)
      return gears;
    for (const auto &g : all) {
      std::vector<std::vector<int64_t>> dims;
      size_t at = 0;
      for (const auto &d : declared) {
        dims.emplace_back(g.dims + at, g.dims + at + d.size());
        at += d.size();
      }
      gears.push_back({dims, [g](uint32_t m, aclmdlDataset *ds, size_t at) {
                         return aclmdlSetInputDynamicDims(m, ds, at, &g);
                       }});
    }
  }
  return gears;
}

const Gear *pick_gear(const std::vector<Gear> &gears,
                      const std::vector<std::vector<int64_t>> &asked) {
  const Gear *found = nullptr;
  for (const auto &g : gears) {
    bool fits = g.dims.size() == asked.size();
    for (size_t i = 0; fits && i < asked.size(); ++i) {
      fits = asked[i].size() == g.dims[i].size();
      for (size_t k = 0; fits && k < asked[i].size(); ++k)
        fits = asked[i][k] < 0 || asked[i][k] == g.dims[i][k];
    }
    if (fits) found = &g;
  }
  return found;
}

}  // namespace openacl_tool
