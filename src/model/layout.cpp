#include "model/layout.h"

#include <numeric>
#include <set>

namespace openacl::model {
namespace {

// The index of the data input of a convolution, or -1 for other ops.
int conv_data_input(const std::string &type) {
  if (type == "Conv2D") return 0;
  if (type == "Conv2DTranspose") return 1;  // after the output-size input
  return -1;
}

bool is_elementwise(const std::string &type) {
  static const std::set<std::string> ops = {
      "Add",       "Sub",         "Mul",       "RealDiv",    "Pow",      "Maximum",
      "Minimum",   "Relu",        "Sigmoid",   "Tanh",       "Exp",      "Log",
      "Sqrt",      "Neg",         "Abs",       "Reciprocal", "Floor",    "Ceil",
      "Round",     "Sin",         "Cos",       "Erf",        "Softplus", "Sign",
      "HardSwish", "HardSigmoid", "LeakyRelu", "Elu",        "Clip",     "Square"};
  return ops.count(type) != 0;
}

bool is_global_pool(const std::string &type) {
  return type == "GlobalAveragePool" || type == "GlobalMaxPool";
}

// Windowed pooling takes x and y in either storage, as a convolution does, but gains nothing
// from channels-last by itself: it neither asks for it nor stands in its way.
bool is_window_pool(const std::string &type) {
  return type == "AvgPoolV2" || type == "MaxPoolV3" || type == "AvgPool" || type == "MaxPool";
}

// A Resize the op library runs on NHWC tensors: nearest or linear mode.
bool is_nhwc_resize(const LayoutStep &s) {
  if (*s.type != "Resize" || s.attrs == nullptr) return false;
  auto it = s.attrs->find("mode");
  const std::string *mode = it == s.attrs->end() ? nullptr : std::get_if<std::string>(&it->second);
  return mode == nullptr || *mode == "nearest" || *mode == "linear" || *mode == "bilinear";
}

// ConcatD of 4-D tensors: joins them along any dim, which moves with the layout.
bool is_4d_concat(const LayoutStep &s, const std::vector<ops::TensorDesc> &descs) {
  if (*s.type != "ConcatD" || s.out.size() != 1 || s.out[0] < 0) return false;
  for (int v : s.in)
    if (v < 0 || descs[v].dims.size() != 4) return false;
  return descs[s.out[0]].dims.size() == 4;
}

// Where NCHW dim d lies in NHWC.
int64_t nhwc_dim(int64_t d) { return d == 0 ? 0 : d == 1 ? 3 : d - 1; }

// How an operand of an elementwise op with a 4-D output [N, C, H, W] broadcasts.
enum class Operand { full, channel, scalar, other };

Operand operand(const std::vector<int64_t> &d, const std::vector<int64_t> &out) {
  if (d == out) return Operand::full;
  if (std::accumulate(d.begin(), d.end(), int64_t{1}, std::multiplies<>()) == 1)
    return Operand::scalar;
  if (d.size() == 4 && (d[0] == 1 || d[0] == out[0]) && d[1] == out[1] && d[2] == 1 && d[3] == 1)
    return Operand::channel;
  if (d.size() == 3 && d[0] == out[1] && d[1] == 1 && d[2] == 1) return Operand::channel;
  return Operand::other;
}

// [N, C, H, W] -> [N, H, W, C]; a per-channel operand moves C last the same way.
std::vector<int64_t> nhwc_view(const std::vector<int64_t> &d) {
  if (d.size() == 4) return {d[0], d[2], d[3], d[1]};
  if (d.size() == 3) return {d[1], d[2], d[0]};
  return d;
}

class Groups {
 public:
  explicit Groups(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int v) {
    while (parent_[v] != v) v = parent_[v] = parent_[parent_[v]];
    return v;
  }
  void join(int a, int b) { parent_[find(a)] = find(b); }

 private:
  std::vector<int> parent_;
};

}  // namespace

std::vector<bool> choose_channels_last(const std::vector<LayoutStep> &steps,
                                       const std::vector<ops::TensorDesc> &descs,
                                       const std::vector<bool> &candidate) {
  const size_t n = descs.size();
  Groups groups(n);
  std::vector<bool> blocked(n, false), useful(n, false);
  auto block = [&](const std::vector<int> &vs) {
    for (int v : vs)
      if (v >= 0) blocked[v] = true;
  };
  for (const LayoutStep &s : steps) {
    const int data = conv_data_input(*s.type);
    if (data >= 0) {
      if (static_cast<size_t>(data) < s.in.size() && s.in[data] >= 0) useful[s.in[data]] = true;
      if (!s.out.empty() && s.out[0] >= 0) useful[s.out[0]] = true;
    } else if (is_elementwise(*s.type) && s.out.size() == 1 && s.out[0] >= 0 &&
               descs[s.out[0]].dims.size() == 4) {
      const int y = s.out[0];
      for (int v : s.in) {
        if (v < 0) continue;
        const Operand k = operand(descs[v].dims, descs[y].dims);
        if (k == Operand::full) groups.join(v, y);
        else if (k == Operand::other) blocked[y] = true;
      }
    } else if (*s.type == "BatchNorm" && !s.out.empty() && s.out[0] >= 0 && !s.in.empty() &&
               s.in[0] >= 0 && descs[s.out[0]].dims.size() == 4) {
      groups.join(s.in[0], s.out[0]);  // per-channel parameters: NHWC through its data_format
    } else if (is_nhwc_resize(s) && !s.in.empty() && s.in[0] >= 0 && s.out.size() == 1 &&
               s.out[0] >= 0) {
      groups.join(s.in[0], s.out[0]);  // scales and sizes are constants, in ONNX's order
    } else if (is_4d_concat(s, descs)) {
      for (int v : s.in) groups.join(v, s.out[0]);
    } else if (!is_global_pool(*s.type) && !is_window_pool(*s.type)) {
      block(s.in);
      block(s.out);
    }
  }
  std::vector<bool> group_blocked(n, false), group_useful(n, false);
  for (size_t v = 0; v < n; ++v) {
    const int g = groups.find(static_cast<int>(v));
    if (blocked[v] || !candidate[v]) group_blocked[g] = true;
    if (useful[v]) group_useful[g] = true;
  }
  std::vector<bool> cl(n, false);
  for (size_t v = 0; v < n; ++v) {
    const int g = groups.find(static_cast<int>(v));
    cl[v] = candidate[v] && !group_blocked[g] && group_useful[g];
  }
  return cl;
}

bool restate_step(const std::string &type, ops::Attrs &attrs, std::vector<ops::TensorDesc> &in,
                  std::vector<ops::TensorDesc> &out, const LayoutStep &step,
                  const std::vector<bool> &channels_last) {
  auto cl = [&](int v) { return v >= 0 && channels_last[v]; };
  bool touched = false;
  for (int v : step.in) touched = touched || cl(v);
  for (int v : step.out) touched = touched || cl(v);
  if (!touched) return false;

  const int data = is_window_pool(type) ? 0 : conv_data_input(type);
  if (data >= 0) {
    in[data].channels_last = cl(step.in[data]);
    out[0].channels_last = cl(step.out[0]);
    return true;
  }
  if (is_global_pool(type)) {
    in[0].channels_last = true;
    return true;
  }
  if (type == "Resize") {
    attrs["data_format"] = std::string("NHWC");
    in[0].dims = nhwc_view(in[0].dims);
    out[0].dims = nhwc_view(out[0].dims);
    return true;
  }
  if (type == "ConcatD") {
    const int64_t d = std::get<int64_t>(attrs.at("concat_dim"));
    attrs["concat_dim"] = nhwc_dim(d < 0 ? d + 4 : d);
    for (auto &t : in) t.dims = nhwc_view(t.dims);
    out[0].dims = nhwc_view(out[0].dims);
    return true;
  }
  if (type == "BatchNorm") {
    attrs["data_format"] = std::string("NHWC");
    in[0].dims = nhwc_view(in[0].dims);
    out[0].dims = nhwc_view(out[0].dims);
    return true;
  }
  // Elementwise, its output channels-last (the whole group is).
  const std::vector<int64_t> y = out[0].dims;
  for (auto &d : in)
    if (d.dtype != ops::DType::undefined && operand(d.dims, y) != Operand::scalar)
      d.dims = nhwc_view(d.dims);
  out[0].dims = nhwc_view(y);
  return true;
}

}  // namespace openacl::model
