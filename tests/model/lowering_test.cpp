// ONNX ops beyond the PP-OCR models, each in a one- or two-node model, against ONNX Runtime:
// the lowering of attributes and opset differences (Softmax before opset 13, Slice with
// steps, Gemm's alpha/beta/transposes, Resize modes, pooling options, ...).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "model_helpers.h"

using namespace model_test;

namespace {

struct Case {
  const char *name;
  int64_t opset;
  std::vector<int64_t> input;
  std::function<void(onnx::ModelProto &)> build;  // reads "x", writes "y"
};

onnx::AttributeProto *attr(onnx::NodeProto *n, const std::string &name) {
  auto *a = n->add_attribute();
  a->set_name(name);
  return a;
}
void set_int(onnx::NodeProto *n, const std::string &name, int64_t v) {
  auto *a = attr(n, name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
void set_float(onnx::NodeProto *n, const std::string &name, float v) {
  auto *a = attr(n, name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}
void set_string(onnx::NodeProto *n, const std::string &name, const std::string &v) {
  auto *a = attr(n, name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}
void int_initializer(onnx::ModelProto &m, const std::string &name, const std::vector<int64_t> &v) {
  auto *t = m.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  t->add_dims(static_cast<int64_t>(v.size()));
  for (auto x : v) t->add_int64_data(x);
}
void int_tensor_initializer(onnx::ModelProto &m, const std::string &name,
                            const std::vector<int64_t> &dims, const std::vector<int64_t> &v) {
  int_initializer(m, name, v);
  auto *t = m.mutable_graph()->mutable_initializer(m.graph().initializer_size() - 1);
  t->clear_dims();
  for (auto d : dims) t->add_dims(d);
}
// An int8 / uint8 initializer (ONNX stores those in int32_data).
void byte_initializer(onnx::ModelProto &m, const std::string &name, int32_t onnx_type,
                      const std::vector<int64_t> &dims, const std::vector<int32_t> &v) {
  auto *t = m.mutable_graph()->add_initializer();
  t->set_name(name);
  t->set_data_type(onnx_type);
  for (auto d : dims) t->add_dims(d);
  for (auto x : v) t->add_int32_data(x);
}
std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * (static_cast<float>(i % 7) - 3.0f);
  return v;
}

const std::vector<Case> kCases = {
    {"softmax_opset11_flattens",
     11,
     {2, 3, 4},
     [](auto &m) { set_int(add_node(m, "Softmax", "s", {"x"}, {"y"}), "axis", 1); }},
    {"softmax_opset13_axis",
     13,
     {2, 3, 4},
     [](auto &m) { set_int(add_node(m, "Softmax", "s", {"x"}, {"y"}), "axis", 1); }},
    {"gemm_alpha_beta_transB",
     13,
     {3, 4},
     [](auto &m) {
       add_initializer(m, "b", {5, 4}, ramp(20, 0.1f));
       add_initializer(m, "c", {5}, ramp(5, 0.5f));
       auto *n = add_node(m, "Gemm", "g", {"x", "b", "c"}, {"y"});
       set_int(n, "transB", 1);
       set_float(n, "alpha", 0.5f);
       set_float(n, "beta", 2.0f);
     }},
    {"matmul_batched",
     13,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "b", {4, 5}, ramp(20, 0.1f));
       add_node(m, "MatMul", "mm", {"x", "b"}, {"y"});
     }},
    {"slice_steps_negative_starts",
     13,
     {4, 10},
     [](auto &m) {
       int_initializer(m, "starts", {-9});
       int_initializer(m, "ends", {100});
       int_initializer(m, "axes", {1});
       int_initializer(m, "steps", {3});
       add_node(m, "Slice", "sl", {"x", "starts", "ends", "axes", "steps"}, {"y"});
     }},
    {"transpose_reshape_flatten",
     13,
     {2, 3, 4},
     [](auto &m) {
       set_ints(add_node(m, "Transpose", "t", {"x"}, {"t"}), "perm", {2, 0, 1});
       int_initializer(m, "shape", {0, -1});
       add_node(m, "Reshape", "r", {"t", "shape"}, {"r"});
       add_node(m, "Flatten", "f", {"r"}, {"y"});
     }},
    {"squeeze_unsqueeze_opset13",
     13,
     {2, 1, 3},
     [](auto &m) {
       int_initializer(m, "a1", {1});
       int_initializer(m, "a2", {0, 3});
       add_node(m, "Squeeze", "sq", {"x", "a1"}, {"s"});
       add_node(m, "Unsqueeze", "us", {"s", "a2"}, {"y"});
     }},
    {"reduce_mean_no_keepdims",
     13,
     {2, 3, 4},
     [](auto &m) {
       auto *n = add_node(m, "ReduceMean", "rm", {"x"}, {"y"});
       set_ints(n, "axes", {0, 2});
       set_int(n, "keepdims", 0);
     }},
    {"maxpool_ceil_mode",
     13,
     {1, 2, 7, 7},
     [](auto &m) {
       auto *n = add_node(m, "MaxPool", "mp", {"x"}, {"y"});
       set_ints(n, "kernel_shape", {3, 3});
       set_ints(n, "strides", {2, 2});
       set_int(n, "ceil_mode", 1);
     }},
    {"averagepool_pads_count_include_pad",
     13,
     {1, 2, 6, 6},
     [](auto &m) {
       auto *n = add_node(m, "AveragePool", "ap", {"x"}, {"y"});
       set_ints(n, "kernel_shape", {3, 3});
       set_ints(n, "pads", {1, 1, 1, 1});
       set_int(n, "count_include_pad", 1);
     }},
    {"resize_linear_half_pixel",
     13,
     {1, 2, 4, 5},
     [](auto &m) {
       add_initializer(m, "scales", {4}, {1, 1, 2, 1.5f});
       auto *n = add_node(m, "Resize", "rs", {"x", "", "scales"}, {"y"});
       set_string(n, "mode", "linear");
     }},
    {"resize_cubic_half_pixel",
     13,
     {1, 2, 4, 5},
     [](auto &m) {
       add_initializer(m, "scales", {4}, {1, 1, 2, 1.5f});
       set_string(add_node(m, "Resize", "rs", {"x", "", "scales"}, {"y"}), "mode", "cubic");
     }},
    {"resize_cubic_align_corners_sizes",
     13,
     {1, 2, 4, 5},
     [](auto &m) {
       int_initializer(m, "sizes", {1, 2, 7, 9});
       auto *n = add_node(m, "Resize", "rs", {"x", "", "", "sizes"}, {"y"});
       set_string(n, "mode", "cubic");
       set_string(n, "coordinate_transformation_mode", "align_corners");
     }},
    {"resize_cubic_exclude_outside_downscale",
     13,
     {1, 1, 6, 5},
     [](auto &m) {
       add_initializer(m, "scales", {4}, {1, 1, 0.5f, 2.5f});
       auto *n = add_node(m, "Resize", "rs", {"x", "", "scales"}, {"y"});
       set_string(n, "mode", "cubic");
       set_string(n, "coordinate_transformation_mode", "pytorch_half_pixel");
       set_float(n, "cubic_coeff_a", -0.5f);
       set_int(n, "exclude_outside", 1);
     }},
    {"conv_transpose_stride_pads_bias",
     13,
     {1, 2, 3, 3},
     [](auto &m) {
       add_initializer(m, "w", {2, 3, 3, 3}, ramp(54, 0.1f));
       add_initializer(m, "b", {3}, {0.1f, 0.2f, -0.3f});
       auto *n = add_node(m, "ConvTranspose", "ct", {"x", "w", "b"}, {"y"});
       set_ints(n, "strides", {2, 2});
       set_ints(n, "pads", {1, 0, 1, 0});
     }},
    {"conv_groups_dilations_bn",
     13,
     {1, 4, 8, 8},
     [](auto &m) {
       add_initializer(m, "w", {4, 2, 3, 3}, ramp(72, 0.05f));
       auto *c = add_node(m, "Conv", "cv", {"x", "w"}, {"c"});
       set_int(c, "group", 2);
       set_ints(c, "dilations", {2, 2});
       set_ints(c, "pads", {2, 2, 2, 2});
       add_initializer(m, "g", {4}, {1, 2, 0.5f, 1});
       add_initializer(m, "be", {4}, {0, 0.1f, 0.2f, 0.3f});
       add_initializer(m, "mu", {4}, {0.1f, 0, -0.1f, 0.2f});
       add_initializer(m, "va", {4}, {1, 0.5f, 2, 1.5f});
       add_node(m, "BatchNormalization", "bn", {"c", "g", "be", "mu", "va"}, {"y"});
     }},
    // Conv chains are stored channels-last between the convolutions (model/layout.h):
    // per-channel Mul/Add, a squeeze-excite pooling, a residual Add and activations on them.
    {"conv_chain_channels_last",
     14,
     {1, 4, 6, 6},
     [](auto &m) {
       add_initializer(m, "w1", {8, 4, 3, 3}, ramp(288, 0.02f));
       set_ints(add_node(m, "Conv", "c1", {"x", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
       add_node(m, "HardSwish", "hs", {"c1"}, {"h"});
       add_node(m, "GlobalAveragePool", "gap", {"h"}, {"g"});
       add_node(m, "Mul", "se", {"h", "g"}, {"s"});
       add_initializer(m, "bias", {8, 1, 1}, ramp(8, 0.1f));
       add_node(m, "Add", "bi", {"s", "bias"}, {"sb"});
       add_initializer(m, "w2", {8, 8, 1, 1}, ramp(64, 0.03f));
       add_node(m, "Conv", "c2", {"sb", "w2"}, {"c2"});
       add_node(m, "Add", "res", {"c2", "sb"}, {"a"});
       add_node(m, "Relu", "re", {"a"}, {"r"});
       add_initializer(m, "w3", {4, 8, 3, 3}, ramp(288, 0.01f));
       set_ints(add_node(m, "Conv", "c3", {"r", "w3"}, {"y"}), "pads", {1, 1, 1, 1});
     }},
    // PP-OCRv4 rec's blocks: each activation followed by a scalar Mul and Add (fused into
    // the activation at load), an average pool between channels-last convolutions, and the
    // other forms the fusion takes: Sub, Mul alone, Add alone, a rank-0 constant.
    {"activation_affine_pool_channels_last",
     14,
     {1, 4, 6, 8},
     [](auto &m) {
       add_initializer(m, "w1", {8, 4, 3, 3}, ramp(288, 0.02f));
       set_ints(add_node(m, "Conv", "c1", {"x", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
       add_node(m, "HardSwish", "hs", {"c1"}, {"h"});
       add_initializer(m, "s", {1}, {0.75f});
       add_node(m, "Mul", "ms", {"s", "h"}, {"hm"});
       add_initializer(m, "b", {1}, {-0.25f});
       add_node(m, "Add", "ab", {"hm", "b"}, {"ha"});
       auto *p = add_node(m, "AveragePool", "ap", {"ha"}, {"p"});
       set_ints(p, "kernel_shape", {2, 2});
       set_ints(p, "strides", {2, 2});
       add_initializer(m, "w2", {8, 8, 1, 1}, ramp(64, 0.03f));
       add_node(m, "Conv", "c2", {"p", "w2"}, {"c2"});
       add_node(m, "Relu", "re", {"c2"}, {"r"});
       add_initializer(m, "d", {}, {0.5f});
       add_node(m, "Sub", "sd", {"r", "d"}, {"rs"});
       add_node(m, "Sigmoid", "sg", {"rs"}, {"g"});
       add_node(m, "Mul", "mg", {"g", "s"}, {"gm"});
       add_node(m, "Tanh", "th", {"gm"}, {"t"});
       add_node(m, "Add", "at", {"t", "b"}, {"y"});
     }},
    // x ** 2 runs as Square, other exponents as Pow.
    {"pow_square_and_cube",
     13,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "two", {}, {2.0f});
       add_node(m, "Pow", "sq", {"x", "two"}, {"q"});
       add_initializer(m, "three", {1}, {3.0f});
       add_node(m, "Pow", "cb", {"x", "three"}, {"c"});
       add_node(m, "Add", "sum", {"q", "c"}, {"y"});
     }},
    // A DBNet-style head: batch norms and 2x2 stride-2 transposed convolutions (one matmul
    // per kernel tap) on channels-last tensors, the last one with a single channel.
    {"upsampling_head_channels_last",
     13,
     {1, 4, 5, 6},
     [](auto &m) {
       add_initializer(m, "w1", {8, 4, 3, 3}, ramp(288, 0.02f));
       set_ints(add_node(m, "Conv", "c1", {"x", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
       add_initializer(m, "g", {8}, ramp(8, 0.2f));
       add_initializer(m, "be", {8}, ramp(8, 0.1f));
       add_initializer(m, "mu", {8}, ramp(8, 0.05f));
       add_initializer(m, "va", {8}, {0.5f, 1, 1.5f, 2, 0.7f, 0.9f, 1.2f, 0.4f});
       add_node(m, "BatchNormalization", "bn1", {"c1", "g", "be", "mu", "va"}, {"b1"});
       add_node(m, "Relu", "r1", {"b1"}, {"r1"});
       add_initializer(m, "wt1", {8, 8, 2, 2}, ramp(256, 0.01f));
       add_initializer(m, "bt1", {8}, ramp(8, 0.1f));
       set_ints(add_node(m, "ConvTranspose", "ct1", {"r1", "wt1", "bt1"}, {"t1"}), "strides",
                {2, 2});
       add_node(m, "BatchNormalization", "bn2", {"t1", "g", "be", "mu", "va"}, {"b2"});
       add_node(m, "Relu", "r2", {"b2"}, {"r2"});
       add_initializer(m, "wt2", {8, 1, 2, 2}, ramp(32, 0.05f));
       set_ints(add_node(m, "ConvTranspose", "ct2", {"r2", "wt2"}, {"t2"}), "strides", {2, 2});
       add_node(m, "Sigmoid", "sg", {"t2"}, {"y"});
     }},
    {"conv1d_stride_pads_bias",
     13,
     {1, 3, 10},
     [](auto &m) {
       add_initializer(m, "w", {4, 3, 3}, ramp(36, 0.1f));
       add_initializer(m, "b", {4}, {0.1f, -0.2f, 0.3f, 0});
       auto *n = add_node(m, "Conv", "c1", {"x", "w", "b"}, {"y"});
       set_ints(n, "strides", {2});
       set_ints(n, "pads", {1, 2});
     }},
    {"pad_constant_value_opset13",
     13,
     {1, 2, 3, 4},
     [](auto &m) {
       int_initializer(m, "pads", {0, 0, 1, 2, 0, 1, 0, 1});
       add_initializer(m, "v", {}, {0.5f});
       add_node(m, "Pad", "pd", {"x", "pads", "v"}, {"y"});
     }},
    {"pad_reflect",
     13,
     {1, 2, 4, 5},
     [](auto &m) {
       int_initializer(m, "pads", {0, 0, 2, 1, 0, 1, 3, 4});
       set_string(add_node(m, "Pad", "pd", {"x", "pads"}, {"y"}), "mode", "reflect");
     }},
    {"pad_edge_opset11",
     11,
     {2, 3, 4},
     [](auto &m) {
       int_initializer(m, "pads", {1, 0, 2, 0, 3, 5});
       set_string(add_node(m, "Pad", "pd", {"x", "pads"}, {"y"}), "mode", "edge");
     }},
    {"selu_celu_thresholded_relu",
     13,
     {2, 3, 4},
     [](auto &m) {
       set_float(add_node(m, "Selu", "se", {"x"}, {"a"}), "alpha", 1.5f);
       set_float(add_node(m, "Celu", "ce", {"a"}, {"b"}), "alpha", 0.7f);
       set_float(add_node(m, "ThresholdedRelu", "tr", {"b"}, {"y"}), "alpha", 0.2f);
     }},
    {"gelu_opset20_erf_and_tanh",
     20,
     {2, 8},
     [](auto &m) {
       add_node(m, "Gelu", "g1", {"x"}, {"a"});
       set_string(add_node(m, "Gelu", "g2", {"a"}, {"y"}), "approximate", "tanh");
     }},
    {"lp_normalization_isinf_isnan",
     13,
     {2, 3, 4},
     [](auto &m) {
       set_int(add_node(m, "LpNormalization", "lp", {"x"}, {"l"}), "axis", 1);
       add_initializer(m, "zero", {}, {0.0f});
       add_node(m, "Div", "dz", {"x", "zero"}, {"inf"});  // +-inf
       add_node(m, "Sub", "nn", {"inf", "inf"}, {"nan"});
       set_int(add_node(m, "Cast", "c1",
                        {add_node(m, "IsInf", "ii", {"inf"}, {"isinf"})->output(0)}, {"f1"}),
               "to", 1);
       auto *pos = add_node(m, "IsInf", "ip", {"inf"}, {"ispos"});
       set_int(pos, "detect_negative", 0);
       set_int(add_node(m, "Cast", "c2", {"ispos"}, {"f2"}), "to", 1);
       set_int(add_node(m, "Cast", "c3",
                        {add_node(m, "IsNaN", "in", {"nan"}, {"isnan"})->output(0)}, {"f3"}),
               "to", 1);
       add_node(m, "Sum", "s", {"l", "f1", "f2", "f3"}, {"y"});
     }},
    {"pad_axes_opset18",
     18,
     {2, 3, 4},
     [](auto &m) {
       int_initializer(m, "pads", {1, 2, 3, 0});
       int_initializer(m, "axes", {-1, 0});
       add_node(m, "Pad", "pd", {"x", "pads", "", "axes"}, {"y"});
     }},
    {"constant_of_shape_and_range",
     13,
     {2, 5},
     [](auto &m) {
       add_node(m, "Shape", "sh", {"x"}, {"s"});
       auto *cs = add_node(m, "ConstantOfShape", "cs", {"s"}, {"k"});
       auto *a = cs->add_attribute();
       a->set_name("value");
       a->set_type(onnx::AttributeProto::TENSOR);
       a->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
       a->mutable_t()->add_dims(1);
       a->mutable_t()->add_float_data(2.5f);
       add_node(m, "Add", "a1", {"x", "k"}, {"xk"});
       add_initializer(m, "start", {}, {1.0f});
       add_initializer(m, "limit", {}, {3.4f});
       add_initializer(m, "delta", {}, {0.5f});
       add_node(m, "Range", "rg", {"start", "limit", "delta"}, {"r"});
       add_node(m, "Add", "a2", {"xk", "r"}, {"y"});
     }},
    {"split_uneven_num_outputs_opset18",
     18,
     {2, 7},
     [](auto &m) {
       auto *sp = add_node(m, "Split", "sp", {"x"}, {"a", "b", "c"});
       set_int(sp, "axis", 1);
       set_int(sp, "num_outputs", 3);
       set_int(add_node(m, "Concat", "cc", {"c", "a", "b"}, {"y"}), "axis", 1);
     }},
    {"prelu_softsign_mean_mish",
     18,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "slope", {3, 1}, {0.1f, 0.2f, 0.3f});
       add_node(m, "PRelu", "pr", {"x", "slope"}, {"p"});
       add_node(m, "Softsign", "ss", {"x"}, {"s"});
       add_node(m, "Mish", "mi", {"x"}, {"q"});
       add_node(m, "Mean", "mn", {"p", "s", "q"}, {"y"});
     }},
    {"instance_norm",
     13,
     {2, 3, 4, 5},
     [](auto &m) {
       add_initializer(m, "sc", {3}, {1.0f, 0.5f, 2.0f});
       add_initializer(m, "b", {3}, {0.1f, -0.2f, 0.3f});
       set_float(add_node(m, "InstanceNormalization", "in", {"x", "sc", "b"}, {"y"}), "epsilon",
                 1e-3f);
     }},
    {"composite_reductions_opset13",
     13,
     {2, 3, 4},
     [](auto &m) {
       for (const char *op : {"ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSumExp"}) {
         auto *n = add_node(m, op, std::string(op) + "_n", {"x"}, {std::string(op) + "_y"});
         set_ints(n, "axes", {1});
       }
       add_node(m, "Sum", "sum",
                {"ReduceL1_y", "ReduceL2_y", "ReduceSumSquare_y", "ReduceLogSumExp_y"}, {"y"});
     }},
    {"composite_reductions_opset18_no_keepdims",
     18,
     {2, 3, 4},
     [](auto &m) {
       int_initializer(m, "axes", {0, 2});
       auto *a = add_node(m, "ReduceLogSumExp", "lse", {"x", "axes"}, {"a"});
       set_int(a, "keepdims", 0);
       add_node(m, "Abs", "abs", {"x"}, {"ax"});
       auto *b = add_node(m, "ReduceLogSum", "ls", {"ax", "axes"}, {"b"});
       set_int(b, "keepdims", 0);
       add_node(m, "Add", "add", {"a", "b"}, {"y"});
     }},
    {"space_to_depth_then_depth_to_space_crd",
     13,
     {1, 2, 4, 6},
     [](auto &m) {
       set_int(add_node(m, "SpaceToDepth", "s2d", {"x"}, {"s"}), "blocksize", 2);
       auto *n = add_node(m, "DepthToSpace", "d2s", {"s"}, {"y"});
       set_int(n, "blocksize", 2);
       set_string(n, "mode", "CRD");
     }},
    {"depth_to_space_dcr",
     13,
     {1, 8, 2, 3},
     [](auto &m) { set_int(add_node(m, "DepthToSpace", "d2s", {"x"}, {"y"}), "blocksize", 2); }},
    {"integer_mod_via_casts",
     13,
     {2, 5},
     [](auto &m) {
       add_initializer(m, "ten", {}, {10.0f});
       add_node(m, "Mul", "mul", {"x", "ten"}, {"t"});
       auto *c1 = add_node(m, "Cast", "c1", {"t"}, {"ti"});
       set_int(c1, "to", onnx::TensorProto::INT64);
       int_initializer(m, "three", {-3});
       add_node(m, "Mod", "mod", {"ti", "three"}, {"r"});
       set_int(add_node(m, "Cast", "c2", {"r"}, {"y"}), "to", onnx::TensorProto::FLOAT);
     }},
    {"upsample_opset9_nearest",
     9,
     {1, 2, 3, 4},
     [](auto &m) {
       add_initializer(m, "scales", {4}, {1, 1, 2, 3});
       add_node(m, "Upsample", "up", {"x", "scales"}, {"y"});
     }},
    {"upsample_opset8_scales_attribute",
     8,
     {1, 2, 3, 4},
     [](auto &m) {
       auto *a = attr(add_node(m, "Upsample", "up", {"x"}, {"y"}), "scales");
       a->set_type(onnx::AttributeProto::FLOATS);
       for (float f : {1.0f, 1.0f, 3.0f, 2.0f}) a->add_floats(f);
     }},
    {"split_concat",
     13,
     {2, 6},
     [](auto &m) {
       int_initializer(m, "split", {2, 4});
       set_int(add_node(m, "Split", "sp", {"x", "split"}, {"a", "b"}), "axis", 1);
       set_int(add_node(m, "Concat", "cc", {"b", "a"}, {"y"}), "axis", 1);
     }},
    {"gather_axis1",
     13,
     {3, 5},
     [](auto &m) {
       int_initializer(m, "idx", {4, 0, -1});
       set_int(add_node(m, "Gather", "ga", {"x", "idx"}, {"y"}), "axis", 1);
     }},
    {"activations",
     14,
     {2, 8},
     [](auto &m) {
       set_float(add_node(m, "LeakyRelu", "lr", {"x"}, {"a"}), "alpha", 0.1f);
       add_node(m, "Elu", "el", {"a"}, {"b"});
       add_node(m, "Tanh", "th", {"b"}, {"c"});
       add_node(m, "HardSwish", "hs", {"c"}, {"y"});
     }},
    {"layer_norm_opset17",
     17,
     {2, 3, 8},
     [](auto &m) {
       add_initializer(m, "s", {8}, ramp(8, 0.3f));
       add_initializer(m, "b", {8}, ramp(8, 0.1f));
       set_int(add_node(m, "LayerNormalization", "ln", {"x", "s", "b"}, {"y"}), "axis", -1);
     }},
    {"expand_tile_where",
     13,
     {1, 4},
     [](auto &m) {
       int_initializer(m, "shape", {3, 4});
       add_node(m, "Expand", "ex", {"x", "shape"}, {"e"});
       int_initializer(m, "reps", {1, 2});
       add_node(m, "Tile", "ti", {"e", "reps"}, {"t"});
       add_initializer(m, "zero", {}, {0.0f});
       add_node(m, "Greater", "gt", {"t", "zero"}, {"cond"});
       add_node(m, "Neg", "ng", {"t"}, {"n"});
       add_node(m, "Where", "wh", {"cond", "t", "n"}, {"y"});
     }},
    {"clip_opset11_min_only_and_shape_chain",
     11,
     {2, 3},
     [](auto &m) {
       add_initializer(m, "lo", {}, {0.2f});
       add_node(m, "Clip", "cl", {"x", "lo"}, {"c"});
       add_node(m, "Shape", "sh", {"c"}, {"s"});
       add_node(m, "Reshape", "rs", {"c", "s"}, {"y"});
     }},
    {"cumsum_plain_and_exclusive_reverse",
     14,
     {2, 5},
     [](auto &m) {
       int_tensor_initializer(m, "ax0", {}, {0});
       int_tensor_initializer(m, "ax1", {}, {-1});
       add_node(m, "CumSum", "c0", {"x", "ax0"}, {"a"});
       auto *n = add_node(m, "CumSum", "c1", {"x", "ax1"}, {"b"});
       set_int(n, "exclusive", 1);
       set_int(n, "reverse", 1);
       add_node(m, "Add", "add", {"a", "b"}, {"y"});
     }},
    {"gather_elements_negative_indices",
     13,
     {3, 4},
     [](auto &m) {
       int_tensor_initializer(m, "idx", {3, 2}, {0, 3, 1, -1, 2, 2});
       set_int(add_node(m, "GatherElements", "ge", {"x", "idx"}, {"y"}), "axis", 1);
     }},
    {"scatter_elements_add_then_none",
     16,
     {3, 4},
     [](auto &m) {
       int_tensor_initializer(m, "i1", {2, 4}, {0, 2, 1, 0, 2, 2, -1, 0});
       add_initializer(m, "u1", {2, 4}, ramp(8, 0.5f));
       auto *a = add_node(m, "ScatterElements", "s1", {"x", "i1", "u1"}, {"a"});
       set_string(a, "reduction", "add");
       int_tensor_initializer(m, "i2", {3, 1}, {3, 0, 1});
       add_initializer(m, "u2", {3, 1}, {9.0f, -9.0f, 4.0f});
       set_int(add_node(m, "ScatterElements", "s2", {"a", "i2", "u2"}, {"y"}), "axis", 1);
     }},
    {"quantize_dequantize_int8_per_tensor",
     13,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "s", {}, {0.02f});
       byte_initializer(m, "zp", onnx::TensorProto::INT8, {}, {3});
       add_node(m, "QuantizeLinear", "q", {"x", "s", "zp"}, {"q"});
       add_node(m, "DequantizeLinear", "dq", {"q", "s", "zp"}, {"y"});
     }},
    {"quantize_dequantize_uint8_per_axis",
     13,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "s", {3}, {0.01f, 0.03f, 0.005f});  // the last saturates at 0 and 255
       byte_initializer(m, "zp", onnx::TensorProto::UINT8, {3}, {128, 100, 120});
       add_node(m, "QuantizeLinear", "q", {"x", "s", "zp"}, {"q"});
       add_node(m, "DequantizeLinear", "dq", {"q", "s", "zp"}, {"y"});
     }},
    {"quantize_default_uint8_then_dequantize_axis2",
     13,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "s", {}, {0.04f});
       add_node(m, "QuantizeLinear", "q", {"x", "s"}, {"q"});
       add_initializer(m, "s4", {4}, {0.1f, 0.2f, 0.3f, 0.4f});
       set_int(add_node(m, "DequantizeLinear", "dq", {"q", "s4"}, {"y"}), "axis", 2);
     }},
    {"lstm_forward_bias_all_outputs",
     14,
     {5, 2, 3},
     [](auto &m) {
       add_initializer(m, "W", {1, 16, 3}, ramp(48, 0.2f));
       add_initializer(m, "R", {1, 16, 4}, ramp(64, 0.15f));
       add_initializer(m, "B", {1, 32}, ramp(32, 0.1f));
       set_int(add_node(m, "LSTM", "lstm", {"x", "W", "R", "B"}, {"Y", "Yh", "Yc"}), "hidden_size",
               4);
       int_initializer(m, "flat", {-1});
       add_node(m, "Reshape", "r1", {"Y", "flat"}, {"y1"});
       add_node(m, "Reshape", "r2", {"Yh", "flat"}, {"y2"});
       add_node(m, "Reshape", "r3", {"Yc", "flat"}, {"y3"});
       set_int(add_node(m, "Concat", "cc", {"y1", "y2", "y3"}, {"y"}), "axis", 0);
     }},
    {"lstm_bidirectional_initial_states",
     14,
     {4, 2, 3},
     [](auto &m) {
       add_initializer(m, "W", {2, 12, 3}, ramp(72, 0.2f));
       add_initializer(m, "R", {2, 12, 3}, ramp(72, 0.15f));
       add_initializer(m, "h0", {2, 2, 3}, ramp(12, 0.3f));
       add_initializer(m, "c0", {2, 2, 3}, ramp(12, -0.2f));
       auto *n = add_node(m, "LSTM", "lstm", {"x", "W", "R", "", "", "h0", "c0"}, {"Y", "Yh"});
       set_int(n, "hidden_size", 3);
       set_string(n, "direction", "bidirectional");
       int_initializer(m, "flat", {-1});
       add_node(m, "Reshape", "r1", {"Y", "flat"}, {"y1"});
       add_node(m, "Reshape", "r2", {"Yh", "flat"}, {"y2"});
       set_int(add_node(m, "Concat", "cc", {"y1", "y2"}, {"y"}), "axis", 0);
     }},
    {"gru_reverse_linear_before_reset",
     14,
     {4, 2, 3},
     [](auto &m) {
       add_initializer(m, "W", {1, 12, 3}, ramp(36, 0.2f));
       add_initializer(m, "R", {1, 12, 4}, ramp(48, 0.15f));
       add_initializer(m, "B", {1, 24}, ramp(24, 0.1f));
       auto *n = add_node(m, "GRU", "gru", {"x", "W", "R", "B"}, {"y"});
       set_int(n, "hidden_size", 4);
       set_string(n, "direction", "reverse");
       set_int(n, "linear_before_reset", 1);
     }},
    {"gru_bidirectional_final_state",
     14,
     {3, 2, 3},
     [](auto &m) {
       add_initializer(m, "W", {2, 9, 3}, ramp(54, 0.2f));
       add_initializer(m, "R", {2, 9, 3}, ramp(54, 0.15f));
       add_initializer(m, "B", {2, 18}, ramp(36, 0.1f));
       auto *n = add_node(m, "GRU", "gru", {"x", "W", "R", "B"}, {"", "y"});
       set_int(n, "hidden_size", 3);
       set_string(n, "direction", "bidirectional");
     }},
    {"einsum_batched_matmul",
     12,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "b", {2, 4, 5}, ramp(40, 0.1f));
       set_string(add_node(m, "Einsum", "e", {"x", "b"}, {"y"}), "equation", "bij,bjk->bik");
     }},
    {"einsum_attention_scores",
     12,
     {1, 2, 3, 4},
     [](auto &m) {
       add_initializer(m, "k", {1, 2, 5, 4}, ramp(40, 0.1f));
       set_string(add_node(m, "Einsum", "e", {"x", "k"}, {"y"}), "equation", "bhqd, bhkd -> bhqk");
     }},
    {"einsum_ellipsis_and_implicit_output",
     12,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "w", {4, 2}, ramp(8, 0.3f));
       set_string(add_node(m, "Einsum", "e1", {"x", "w"}, {"a"}), "equation", "...ij,jk->...ik");
       add_initializer(m, "v", {2}, {0.5f, -2.0f});
       set_string(add_node(m, "Einsum", "e2", {"a", "v"}, {"y"}), "equation", "bik,k");  // -> bi
     }},
    {"einsum_single_operand_sum_and_transpose",
     12,
     {3, 4, 5},
     [](auto &m) { set_string(add_node(m, "Einsum", "e", {"x"}, {"y"}), "equation", "ijk->kj"); }},
    {"einsum_outer_product_and_private_sum",
     12,
     {3, 4},
     [](auto &m) {
       add_initializer(m, "u", {2, 5}, ramp(10, 0.2f));
       set_string(add_node(m, "Einsum", "e", {"x", "u"}, {"y"}), "equation", "ij,kl->ljk");
     }},
    {"trigonometric_and_hyperbolic",
     13,
     {2, 8},
     [](auto &m) {
       add_node(m, "Tanh", "th", {"x"}, {"t"});
       add_initializer(m, "half", {}, {0.5f});
       add_initializer(m, "one", {}, {1.0f});
       add_node(m, "Mul", "h", {"x", "half"}, {"xh"});
       add_node(m, "Mul", "th9", {"t", "half"}, {"t9"});
       add_node(m, "Asin", "asin", {"t"}, {"a1"});
       add_node(m, "Acos", "acos", {"t"}, {"a2"});
       add_node(m, "Atanh", "atanh", {"t9"}, {"a3"});
       add_node(m, "Atan", "atan", {"x"}, {"a4"});
       add_node(m, "Sinh", "sinh", {"x"}, {"a5"});
       add_node(m, "Cosh", "cosh", {"x"}, {"a6"});
       add_node(m, "Asinh", "asinh", {"x"}, {"a7"});
       add_node(m, "Add", "c1", {"a6", "one"}, {"c1"});
       add_node(m, "Acosh", "acosh", {"c1"}, {"a8"});
       add_node(m, "Tan", "tan", {"xh"}, {"a9"});
       add_node(m, "Sum", "sum", {"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"}, {"y"});
     }},
    {"lrn_across_channels",
     13,
     {1, 6, 3, 3},
     [](auto &m) {
       auto *n = add_node(m, "LRN", "lrn", {"x"}, {"y"});
       set_int(n, "size", 5);
       set_float(n, "alpha", 0.5f);
       set_float(n, "beta", 0.75f);
       set_float(n, "bias", 2.0f);
     }},
    {"group_normalization_opset18",
     18,
     {2, 4, 3, 3},
     [](auto &m) {
       add_initializer(m, "scale", {2}, {1.5f, -0.5f});
       add_initializer(m, "bias", {2}, {0.25f, 1.0f});
       set_int(add_node(m, "GroupNormalization", "gn", {"x", "scale", "bias"}, {"y"}), "num_groups",
               2);
     }},
    {"mean_variance_normalization",
     13,
     {2, 3, 4, 5},
     [](auto &m) { add_node(m, "MeanVarianceNormalization", "mvn", {"x"}, {"y"}); }},
    {"hardmax_opset13_axis1",
     13,
     {3, 4, 5},
     [](auto &m) { set_int(add_node(m, "Hardmax", "hm", {"x"}, {"y"}), "axis", 1); }},
    {"hardmax_opset11_flattens_from_axis",
     11,
     {2, 3, 4},
     [](auto &m) { add_node(m, "Hardmax", "hm", {"x"}, {"y"}); }},
    {"quantize_output_dtype_opset21",
     21,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "s", {}, {0.02f});
       set_int(add_node(m, "QuantizeLinear", "q", {"x", "s"}, {"q"}), "output_dtype",
               onnx::TensorProto::INT8);
       add_node(m, "DequantizeLinear", "dq", {"q", "s"}, {"y"});
     }},
    {"group_normalization_opset21_per_channel",
     21,
     {2, 4, 3, 3},
     [](auto &m) {
       add_initializer(m, "scale", {4}, {1.5f, -0.5f, 2.0f, 0.75f});
       add_initializer(m, "bias", {4}, {0.25f, 1.0f, -1.0f, 0.0f});
       set_int(add_node(m, "GroupNormalization", "gn", {"x", "scale", "bias"}, {"y"}), "num_groups",
               2);
     }},
    {"opset22_conv_pool_gru",
     22,
     {1, 2, 6, 6},
     [](auto &m) {
       add_initializer(m, "w", {3, 2, 3, 3}, ramp(54, 0.1f));
       set_ints(add_node(m, "Conv", "conv", {"x", "w"}, {"c"}), "pads", {1, 1, 1, 1});
       auto *p = add_node(m, "MaxPool", "pool", {"c"}, {"p"});
       set_ints(p, "kernel_shape", {2, 2});
       set_ints(p, "strides", {2, 2});
       int_initializer(m, "seq", {3, 1, 9});  // [T=3 (channels), B=1, I=9 (3x3)]
       add_node(m, "Reshape", "rs", {"p", "seq"}, {"s"});
       add_initializer(m, "W", {1, 6, 9}, ramp(54, 0.2f));
       add_initializer(m, "R", {1, 6, 2}, ramp(12, 0.15f));
       set_int(add_node(m, "GRU", "gru", {"s", "W", "R"}, {"y"}), "hidden_size", 2);
     }},
    {"rms_normalization_opset23",
     23,
     {2, 3, 8},
     [](auto &m) {
       add_initializer(m, "scale", {8}, ramp(8, 0.3f));
       set_float(add_node(m, "RMSNormalization", "rms", {"x", "scale"}, {"y"}), "epsilon", 1e-3f);
     }},
    {"rms_normalization_over_two_dims",
     23,
     {2, 3, 4},
     [](auto &m) {
       add_initializer(m, "scale", {3, 4}, ramp(12, 0.2f));
       set_int(add_node(m, "RMSNormalization", "rms", {"x", "scale"}, {"y"}), "axis", 1);
     }},
    {"opset23_shape_ops",
     23,
     {2, 3, 4},
     [](auto &m) {
       set_ints(add_node(m, "Transpose", "t", {"x"}, {"t"}), "perm", {2, 0, 1});
       int_initializer(m, "pads", {0, 1, 0, 0, 0, 1});
       add_node(m, "Pad", "pad", {"t", "pads"}, {"p"});
       int_initializer(m, "shape", {4, -1});
       add_node(m, "Reshape", "rs", {"p", "shape"}, {"r"});
       set_int(add_node(m, "Cast", "c1", {"r"}, {"h"}), "to", onnx::TensorProto::FLOAT16);
       set_int(add_node(m, "Cast", "c2", {"h"}, {"f"}), "to", onnx::TensorProto::FLOAT);
       int_initializer(m, "axes", {0});
       add_node(m, "Unsqueeze", "u", {"f", "axes"}, {"uq"});
       add_node(m, "Squeeze", "sq", {"uq", "axes"}, {"y"});
     }},
    {"attention_4d_causal_grouped_heads",
     23,
     {1, 4, 3, 8},
     [](auto &m) {
       add_initializer(m, "k", {1, 2, 5, 8}, ramp(80, 0.1f));
       add_initializer(m, "v", {1, 2, 5, 8}, ramp(80, -0.2f));
       set_int(add_node(m, "Attention", "attn", {"x", "k", "v"}, {"y"}), "is_causal", 1);
     }},
    {"attention_3d_additive_mask_softcap",
     23,
     {2, 3, 16},
     [](auto &m) {
       add_initializer(m, "k", {2, 4, 16}, ramp(128, 0.1f));
       add_initializer(m, "v", {2, 4, 16}, ramp(128, -0.2f));
       add_initializer(m, "mask", {3, 4}, ramp(12, 0.5f));
       auto *n = add_node(m, "Attention", "attn", {"x", "k", "v", "mask"}, {"y"});
       set_int(n, "q_num_heads", 2);
       set_int(n, "kv_num_heads", 2);
       set_float(n, "softcap", 2.0f);
       set_float(n, "scale", 0.5f);
     }},
    {"attention_past_kv_bool_mask_present",
     23,
     {1, 2, 2, 4},
     [](auto &m) {
       add_initializer(m, "k", {1, 2, 2, 4}, ramp(16, 0.1f));
       add_initializer(m, "v", {1, 2, 2, 4}, ramp(16, -0.2f));
       add_initializer(m, "pk", {1, 2, 3, 4}, ramp(24, 0.3f));
       add_initializer(m, "pv", {1, 2, 3, 4}, ramp(24, 0.25f));
       auto *mask = m.mutable_graph()->add_initializer();
       mask->set_name("mask");
       mask->set_data_type(onnx::TensorProto::BOOL);
       mask->add_dims(2);
       mask->add_dims(5);
       for (int keep : {1, 1, 0, 1, 1, 1, 0, 1, 1, 1}) mask->add_int32_data(keep);
       add_node(m, "Attention", "attn", {"x", "k", "v", "mask", "pk", "pv"},
                {"o", "present_k", "present_v"});
       int_initializer(m, "flat", {-1});
       add_node(m, "Reshape", "r1", {"o", "flat"}, {"o1"});
       add_node(m, "Reshape", "r2", {"present_k", "flat"}, {"o2"});
       add_node(m, "Reshape", "r3", {"present_v", "flat"}, {"o3"});
       set_int(add_node(m, "Concat", "cc", {"o1", "o2", "o3"}, {"y"}), "axis", 0);
     }},
    {"rotary_embedding_4d_position_ids",
     23,
     {1, 2, 3, 8},
     [](auto &m) {
       std::vector<float> cs, sn;
       for (int p = 0; p < 10; ++p)
         for (int i = 0; i < 4; ++i) {
           cs.push_back(std::cos(0.3f * p * (i + 1)));
           sn.push_back(std::sin(0.3f * p * (i + 1)));
         }
       add_initializer(m, "cos", {10, 4}, cs);
       add_initializer(m, "sin", {10, 4}, sn);
       int_tensor_initializer(m, "pos", {1, 3}, {2, 5, 7});
       add_node(m, "RotaryEmbedding", "rope", {"x", "cos", "sin", "pos"}, {"y"});
     }},
    {"rotary_embedding_3d_interleaved_partial",
     23,
     {2, 3, 12},
     [](auto &m) {
       add_initializer(m, "cos", {2, 3, 2}, ramp(12, 0.2f));
       add_initializer(m, "sin", {2, 3, 2}, ramp(12, -0.15f));
       auto *n = add_node(m, "RotaryEmbedding", "rope", {"x", "cos", "sin"}, {"y"});
       set_int(n, "num_heads", 2);
       set_int(n, "rotary_embedding_dim", 4);
       set_int(n, "interleaved", 1);
     }},
    {"grid_sample_bilinear_zeros",
     16,
     {1, 2, 4, 5},
     [](auto &m) {
       add_initializer(m, "grid", {1, 3, 4, 2}, ramp(24, 0.47f));
       add_node(m, "GridSample", "gs", {"x", "grid"}, {"y"});
     }},
    {"grid_sample_nearest_border_align_corners",
     16,
     {2, 1, 3, 4},
     [](auto &m) {
       add_initializer(m, "grid", {2, 2, 3, 2}, ramp(24, 0.37f));
       auto *n = add_node(m, "GridSample", "gs", {"x", "grid"}, {"y"});
       set_string(n, "mode", "nearest");
       set_string(n, "padding_mode", "border");
       set_int(n, "align_corners", 1);
     }},
    {"grid_sample_linear_reflection_opset20",
     20,
     {1, 2, 4, 5},
     [](auto &m) {
       add_initializer(m, "grid", {1, 3, 4, 2}, ramp(24, 0.61f));
       auto *n = add_node(m, "GridSample", "gs", {"x", "grid"}, {"y"});
       set_string(n, "mode", "linear");
       set_string(n, "padding_mode", "reflection");
     }},
    {"float_and_integer_fmod",
     13,
     {2, 5},
     [](auto &m) {
       add_initializer(m, "d", {5}, {0.7f, -0.7f, 1.3f, -2.1f, 0.45f});
       set_int(add_node(m, "Mod", "fm", {"x", "d"}, {"a"}), "fmod", 1);
       add_initializer(m, "ten", {}, {10.0f});
       add_node(m, "Mul", "mul", {"x", "ten"}, {"t"});
       set_int(add_node(m, "Cast", "c1", {"t"}, {"ti"}), "to", onnx::TensorProto::INT32);
       add_initializer(m, "k", {5}, {3.0f, -3.0f, 4.0f, -5.0f, 7.0f});
       set_int(add_node(m, "Cast", "ck", {"k"}, {"ki"}), "to", onnx::TensorProto::INT32);
       set_int(add_node(m, "Mod", "im", {"ti", "ki"}, {"r"}), "fmod", 1);
       set_int(add_node(m, "Cast", "c2", {"r"}, {"rf"}), "to", onnx::TensorProto::FLOAT);
       add_node(m, "Add", "sum", {"a", "rf"}, {"y"});
     }},
    {"argmax_argmin_select_last_index_ties",
     13,
     {3, 6},
     [](auto &m) {
       add_node(m, "Floor", "fl", {"x"}, {"f"});  // integers in [-2, 2): many ties
       auto *a = add_node(m, "ArgMax", "amax", {"f"}, {"a"});
       set_int(a, "axis", 1);
       set_int(a, "select_last_index", 1);
       auto *b = add_node(m, "ArgMin", "amin", {"f"}, {"b"});
       set_int(b, "axis", 1);
       set_int(b, "select_last_index", 1);
       set_int(add_node(m, "Concat", "cc", {"a", "b"}, {"i"}), "axis", 1);
       set_int(add_node(m, "Cast", "c", {"i"}, {"y"}), "to", onnx::TensorProto::FLOAT);
     }},
    {"bitwise_opset18",
     18,
     {2, 6},
     [](auto &m) {
       add_initializer(m, "k", {}, {37.0f});
       add_node(m, "Mul", "mul", {"x", "k"}, {"t"});
       set_int(add_node(m, "Cast", "c1", {"t"}, {"a"}), "to", onnx::TensorProto::INT32);
       int_tensor_initializer(m, "mask64", {6}, {0xF0, 0x0F, -1, 5, -8, 0x33});
       set_int(add_node(m, "Cast", "c2", {"mask64"}, {"b"}), "to", onnx::TensorProto::INT32);
       add_node(m, "BitwiseAnd", "and", {"a", "b"}, {"r1"});
       add_node(m, "BitwiseOr", "or", {"a", "b"}, {"r2"});
       add_node(m, "BitwiseXor", "xor", {"r1", "r2"}, {"r3"});
       add_node(m, "BitwiseNot", "not", {"r3"}, {"r4"});
       set_int(add_node(m, "Cast", "c3", {"r4"}, {"y"}), "to", onnx::TensorProto::FLOAT);
     }},
    {"eye_like_offset_diagonal",
     13,
     {3, 5},
     [](auto &m) {
       auto *n = add_node(m, "EyeLike", "eye", {"x"}, {"e"});
       set_int(n, "k", 1);
       add_node(m, "Add", "add", {"x", "e"}, {"y"});
     }},
    {"conv_transpose_1d_stride_pads_output_padding",
     13,
     {1, 2, 5},
     [](auto &m) {
       add_initializer(m, "w", {2, 3, 4}, ramp(24, 0.1f));
       add_initializer(m, "b", {3}, {0.1f, -0.2f, 0.3f});
       auto *n = add_node(m, "ConvTranspose", "ct", {"x", "w", "b"}, {"y"});
       set_ints(n, "strides", {2});
       set_ints(n, "pads", {1, 0});
       set_ints(n, "output_padding", {1});
     }},
    {"gather_nd_slices",
     13,
     {2, 3, 4},
     [](auto &m) {
       int_tensor_initializer(m, "idx", {2, 2}, {0, 1, 1, -1});
       add_node(m, "GatherND", "gn", {"x", "idx"}, {"y"});
     }},
    {"scatter_nd_add_then_update",
     16,
     {4, 3},
     [](auto &m) {
       int_tensor_initializer(m, "i1", {2, 1}, {1, 3});
       add_initializer(m, "u1", {2, 3}, ramp(6, 0.5f));
       set_string(add_node(m, "ScatterND", "s1", {"x", "i1", "u1"}, {"a"}), "reduction", "add");
       int_tensor_initializer(m, "i2", {2, 2}, {0, 2, 3, 0});
       add_initializer(m, "u2", {2}, {7.0f, -7.0f});
       add_node(m, "ScatterND", "s2", {"a", "i2", "u2"}, {"y"});
     }},
    {"one_hot_negative_indices_axis1",
     11,
     {2, 5},
     [](auto &m) {
       add_node(m, "Floor", "fl", {"x"}, {"f"});
       set_int(add_node(m, "Cast", "c", {"f"}, {"fi"}), "to", onnx::TensorProto::INT64);
       int_tensor_initializer(m, "depth", {}, {3});
       add_initializer(m, "values", {2}, {-1.0f, 2.0f});
       set_int(add_node(m, "OneHot", "oh", {"fi", "depth", "values"}, {"y"}), "axis", 1);
     }},
    {"top_k_largest_values_and_indices",
     11,
     {3, 6},
     [](auto &m) {
       int_tensor_initializer(m, "k", {1}, {3});
       set_int(add_node(m, "TopK", "tk", {"x", "k"}, {"v", "i"}), "axis", 1);
       set_int(add_node(m, "Cast", "c", {"i"}, {"fi"}), "to", onnx::TensorProto::FLOAT);
       set_int(add_node(m, "Concat", "cc", {"v", "fi"}, {"y"}), "axis", 1);
     }},
    {"top_k_smallest_axis0",
     11,
     {4, 3},
     [](auto &m) {
       int_tensor_initializer(m, "k", {1}, {2});
       auto *n = add_node(m, "TopK", "tk", {"x", "k"}, {"v", "i"});
       set_int(n, "axis", 0);
       set_int(n, "largest", 0);
       set_int(add_node(m, "Cast", "c", {"i"}, {"fi"}), "to", onnx::TensorProto::FLOAT);
       add_node(m, "Add", "add", {"v", "fi"}, {"y"});
     }},
    {"trilu_upper_and_lower_with_k",
     14,
     {2, 4, 5},
     [](auto &m) {
       int_tensor_initializer(m, "km", {}, {-1});
       int_tensor_initializer(m, "kp", {}, {1});
       add_node(m, "Trilu", "up", {"x", "km"}, {"u"});
       set_int(add_node(m, "Trilu", "lo", {"x", "kp"}, {"l"}), "upper", 0);
       add_node(m, "Trilu", "plain", {"x"}, {"p"});
       add_node(m, "Sum", "sum", {"u", "l", "p"}, {"y"});
     }},
};

class ModelLowering : public ::testing::TestWithParam<Case> {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  static void TearDownTestSuite() {
    aclrtResetDevice(0);
    aclFinalize();
  }
};

TEST_P(ModelLowering, MatchesOnnxRuntime) {
  const Case &c = GetParam();
  auto m = tiny_model(c.opset);
  add_input(m, "x", c.input);
  c.build(m);
  add_output(m, "y");
  const std::string path = write_temp(std::string(c.name) + ".onnx", m.SerializeAsString());
  TensorF input = random_input(c.input, 3);
  for (auto &v : input.data) v = v * 4.0f - 2.0f;  // negative values too
  const auto ref = ort_run(path, "x", input);
  AclModel model(path);
  const auto ours = model.run(input);
  ASSERT_EQ(ours.size(), ref.size());
  EXPECT_EQ(ours[0].dims, ref[0].dims);
  EXPECT_LE(relative_error(ours[0].data, ref[0].data), 1e-5);
}

// A rank-0 x times a [1] constant has shape [1]: the activation the Mul is fused into keeps it
// (ONNX Runtime's reference harness takes no rank-0 input).
TEST_F(ModelLowering, AFusedActivationOfARank0InputKeepsTheConstantsShape) {
  auto m = tiny_model(14);
  add_input(m, "x", {});
  add_node(m, "Relu", "re", {"x"}, {"r"});
  add_initializer(m, "s", {1}, {1.5f});
  add_node(m, "Mul", "ms", {"r", "s"}, {"y"});
  add_output(m, "y");
  AclModel model(write_temp("relu_mul_rank0.onnx", m.SerializeAsString()));
  const auto y = model.run(TensorF{{}, {2.0f}});
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].dims, (std::vector<int64_t>{1}));
  ASSERT_EQ(y[0].data.size(), 1u);
  EXPECT_EQ(y[0].data[0], 3.0f);
}

// ONNX Runtime refuses layout 1 (batch-first) RNNs: the layout-1 LSTM must equal the layout-0
// one between transposes.
TEST_F(ModelLowering, BatchFirstLstmEqualsTheTransposedTimeMajorOne) {
  auto lstm = [](bool batch_first) {
    auto m = tiny_model(14);
    add_input(m, "x", {2, 4, 3});
    add_initializer(m, "W", {1, 8, 3}, ramp(24, 0.2f));
    add_initializer(m, "R", {1, 8, 2}, ramp(16, 0.15f));
    const std::vector<float> h0 = ramp(4, 0.3f);  // [B=2, dirs=1, H=2] == [dirs, B, H] bytes
    add_initializer(
        m, "h0", batch_first ? std::vector<int64_t>{2, 1, 2} : std::vector<int64_t>{1, 2, 2}, h0);
    std::string x = "x";
    if (!batch_first) {
      set_ints(add_node(m, "Transpose", "tx", {"x"}, {"xt"}), "perm", {1, 0, 2});
      x = "xt";
    }
    auto *n = add_node(m, "LSTM", "lstm", {x, "W", "R", "", "", "h0"}, {"Y"});
    set_int(n, "hidden_size", 2);
    if (batch_first) set_int(n, "layout", 1);
    if (batch_first) add_node(m, "Identity", "id", {"Y"}, {"y"});
    else set_ints(add_node(m, "Transpose", "ty", {"Y"}, {"y"}), "perm", {2, 0, 1, 3});
    add_output(m, "y");
    return write_temp(batch_first ? "lstm_layout1.onnx" : "lstm_layout0.onnx",
                      m.SerializeAsString());
  };
  const TensorF input = random_input({2, 4, 3}, 5);
  AclModel batch_first(lstm(true)), time_major(lstm(false));
  const auto a = batch_first.run(input), b = time_major.run(input);
  ASSERT_EQ(a[0].dims, (std::vector<int64_t>{2, 4, 1, 2}));
  EXPECT_EQ(a[0].dims, b[0].dims);
  EXPECT_LE(relative_error(a[0].data, b[0].data), 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Ops, ModelLowering, ::testing::ValuesIn(kCases),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
