// atc --singleop: CANN's single-operator "compilation" from an op-list JSON file, as the
// samples' READMEs run it before aclopSetModelDir:
//   atc --singleop=op_list.json --soc_version=Ascend310 --output=op_models
#pragma once

#include <string>

namespace atc {

// Validates every op of the list with aclopCompile (built-in ops need no compiled binary) and
// writes one file per op into `output_dir`, named as CANN names them
// (<index>_<op>_<dtype>_<format>_<dims>..., e.g. 0_Add_0_2_8_16_0_2_8_16_0_2_8_16.om), holding
// the op's JSON entry. Returns "" on success, else what failed, naming the op and its entry.
std::string compile_single_ops(const std::string &json_path, const std::string &output_dir);

}  // namespace atc
