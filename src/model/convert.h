// atc's conversion options applied to an ONNX graph: the same code runs when atc converts (to
// check the options against the model) and when a .om is loaded (to rebuild the model), so a
// .om that converted loads. Option names and syntax are CANN atc's (without the "--"):
//   input_shape         "name:1,3,-1,-1;name2:..."   (-1: set by gears, or dynamic)
//   input_format        NCHW, NHWC, ND, NCDHW, NDHWC
//   input_fp16_nodes    "name;name2"     (those float32 inputs take float16 data)
//   dynamic_batch_size  "1,2,4"          dynamic_image_size "224,224;448,448"
//   dynamic_dims        "1,224;2,448"    (values of all -1 dims of all inputs, per gear)
//   out_nodes           "node:0;node2:1" output_type FP32 | FP16 | UINT8 | "node:0:FP16;..."
//   precision_mode      CANN's values; soc_version the target chip's name
//   op_select_implmode  high_precision | high_performance (| ..._for_all); save_original_model
//                       true | false: checked and accepted, as the sim computes in float32
//                       whatever they say and every .om holds its ONNX model
//   insert_op_conf      the AIPP configuration file's text
// Errors are Errc::parse_model naming the option (and the node or input it is about).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/graph.h"

namespace openacl::model {

using ConvertOptions = std::map<std::string, std::string>;

// Applies the options to a freshly imported graph (before optimization).
void apply_options(Graph &graph, const ConvertOptions &options);

// What atc does: imports the ONNX model, applies and checks the options (every gear is
// planned, so an unsupported node or a shape that does not fit fails here, naming the node),
// and returns the .om bytes.
std::vector<uint8_t> convert(const void *onnx, size_t onnx_size, const ConvertOptions &options);

}  // namespace openacl::model
