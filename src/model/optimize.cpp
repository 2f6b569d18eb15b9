#include "model/optimize.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <set>

namespace openacl::model {
namespace {

using ops::DType;

std::shared_ptr<HostTensor> float_tensor(std::vector<int64_t> dims, std::vector<float> v) {
  auto t = std::make_shared<HostTensor>();
  t->desc = {DType::f32, std::move(dims), ops::Format::nd, {}};
  t->data.resize(v.size() * 4);
  std::memcpy(t->data.data(), v.data(), t->data.size());
  return t;
}

const HostTensor *f32_constant(const Graph &g, int v) {
  if (v < 0 || !g.values[v].constant || g.values[v].constant->desc.dtype != DType::f32)
    return nullptr;
  return g.values[v].constant.get();
}

// The per-output-channel values of c for a conv output with `channels` channels, when c
// broadcasts per channel against [N, channels, H, W] (a scalar, [C,1,1] or [1,C,1,1]).
std::optional<std::vector<float>> per_channel(const HostTensor *c, int64_t channels) {
  if (!c) return std::nullopt;
  const auto &d = c->desc.dims;
  const int64_t n = c->desc.element_count();
  if (n == 1 && d.size() <= 4) return std::vector<float>(channels, c->as<float>()[0]);
  if (n != channels || d.size() < 3 || d.size() > 4) return std::nullopt;
  const size_t r = d.size();
  if (d[r - 3] != channels || d[r - 2] != 1 || d[r - 1] != 1) return std::nullopt;
  return std::vector<float>(c->as<float>(), c->as<float>() + n);
}

// How many node inputs read each value (a graph output counts twice, so that it is never
// folded away) and which node writes it (-1: none).
struct Uses {
  std::vector<int> uses, producer;
};

Uses count_uses(const Graph &g) {
  Uses u{std::vector<int>(g.values.size(), 0), std::vector<int>(g.values.size(), -1)};
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (int v : g.nodes[i].inputs)
      if (v >= 0) ++u.uses[v];
    for (int v : g.nodes[i].outputs)
      if (v >= 0) u.producer[v] = static_cast<int>(i);
  }
  for (int v : g.outputs) u.uses[v] += 2;
  return u;
}

void erase_nodes(Graph &g, const std::vector<bool> &dead) {
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!dead[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

int64_t int_attr(const Node &n, const char *name, int64_t dflt) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end()) return dflt;
  const int64_t *v = std::get_if<int64_t>(&it->second);
  return v ? *v : dflt;
}

}  // namespace

std::optional<std::vector<float>> vector_of(const HostTensor *c, int64_t channels) {
  if (!c || c->desc.element_count() != channels) return std::nullopt;
  return std::vector<float>(c->as<float>(), c->as<float>() + channels);
}

size_t fuse_conv_affine(Graph &g) {
  auto [uses, producer] = count_uses(g);

  std::vector<bool> dead(g.nodes.size(), false);
  size_t folded = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node &n = g.nodes[i];
    const bool bn = n.op == "BatchNormalization";
    if (!bn && n.op != "Mul" && n.op != "Add" && n.op != "Sub") continue;
    if (n.inputs.size() < 2 || n.outputs.empty() || n.outputs[0] < 0) continue;
    int x = n.inputs[0], other = n.inputs[1];
    if ((n.op == "Mul" || n.op == "Add") && g.values[x].constant) std::swap(x, other);
    if (x < 0 || producer[x] < 0 || uses[x] != 1 || dead[producer[x]]) continue;
    const int conv_index = producer[x];
    Node &conv = g.nodes[conv_index];
    // ConvTranspose filters are [C, O, kH, kW]: only one group keeps an output channel's
    // weights a simple stride apart.
    const bool transposed = conv.op == "ConvTranspose";
    if (conv.op != "Conv" && !(transposed && int_attr(conv, "group", 1) == 1)) continue;
    const int w_id = conv.inputs[1];
    const int b_id = conv.inputs.size() > 2 ? conv.inputs[2] : -1;
    const HostTensor *w = f32_constant(g, w_id);
    const HostTensor *b = f32_constant(g, b_id);
    if (!w || w->desc.dims.size() != 4 || (b_id >= 0 && !b)) continue;
    const int64_t oc = w->desc.dims[transposed ? 1 : 0];

    std::vector<float> scale(oc, 1.0f), shift(oc, 0.0f);  // y = conv * scale + shift
    if (bn) {
      bool extra_outputs = false;
      for (size_t k = 1; k < n.outputs.size(); ++k)
        extra_outputs |= n.outputs[k] >= 0 && uses[n.outputs[k]] > 0;
      if (extra_outputs || n.inputs.size() != 5) continue;
      auto gamma = vector_of(f32_constant(g, n.inputs[1]), oc),
           beta = vector_of(f32_constant(g, n.inputs[2]), oc);
      auto mean = vector_of(f32_constant(g, n.inputs[3]), oc),
           var = vector_of(f32_constant(g, n.inputs[4]), oc);
      if (!gamma || !beta || !mean || !var) continue;
      float eps = 1e-5f;
      if (auto it = n.attrs.find("epsilon"); it != n.attrs.end())
        if (auto *f = std::get_if<float>(&it->second)) eps = *f;
      for (int64_t c = 0; c < oc; ++c) {
        scale[c] = (*gamma)[c] / std::sqrt((*var)[c] + eps);
        shift[c] = (*beta)[c] - (*mean)[c] * scale[c];
      }
    } else {
      auto k = per_channel(f32_constant(g, other), oc);
      if (!k) continue;
      if (n.op == "Mul") scale = *k;
      else if (n.op == "Add") shift = *k;
      else
        for (int64_t c = 0; c < oc; ++c) shift[c] = -(*k)[c];
    }

    const int64_t taps = w->desc.dims[2] * w->desc.dims[3];
    const int64_t rows = w->desc.element_count() / taps;  // (O, C/g) or (C, O) pairs
    std::vector<float> nw(w->as<float>(), w->as<float>() + w->desc.element_count());
    std::vector<float> nb(oc, 0.0f);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t c = transposed ? r % oc : r / (rows / oc);
      for (int64_t k = 0; k < taps; ++k) nw[r * taps + k] *= scale[c];
    }
    for (int64_t c = 0; c < oc; ++c) nb[c] = (b ? b->as<float>()[c] : 0.0f) * scale[c] + shift[c];
    const std::string base = g.values[w_id].name;
    conv.inputs.resize(3);
    conv.inputs[1] =
        g.add_value(base + ":fused", w->desc, float_tensor(w->desc.dims, std::move(nw)));
    conv.inputs[2] = g.add_value(base + ":fused_bias", {DType::f32, {oc}, ops::Format::nd, {}},
                                 float_tensor({oc}, std::move(nb)));
    uses.resize(g.values.size(), 0);
    producer.resize(g.values.size(), -1);
    // The conv now produces the folded node's output.
    conv.outputs[0] = n.outputs[0];
    producer[n.outputs[0]] = conv_index;
    dead[i] = true;
    ++folded;
  }
  erase_nodes(g, dead);
  return folded;
}

namespace {

std::optional<float> scalar_of(const Graph &g, int v) {
  const HostTensor *c = f32_constant(g, v);
  if (!c || c->desc.element_count() != 1) return std::nullopt;
  return c->as<float>()[0];
}

bool near(std::optional<float> v, float want) {
  return v && std::fabs(*v - want) <= 1e-5f * std::max(1.0f, std::fabs(want));
}

float float_attr(const Node &n, const char *name, float dflt) {
  auto it = n.attrs.find(name);
  if (it == n.attrs.end()) return dflt;
  const float *f = std::get_if<float>(&it->second);
  return f ? *f : dflt;
}

}  // namespace

size_t fuse_hard_swish(Graph &g) {
  auto [uses, producer] = count_uses(g);
  // The node producing v when v feeds exactly one node.
  auto single = [&](int v, const char *op) -> Node * {
    if (v < 0 || uses[v] != 1 || producer[v] < 0) return nullptr;
    Node &n = g.nodes[producer[v]];
    return n.op == op ? &n : nullptr;
  };
  std::vector<bool> dead(g.nodes.size(), false);
  size_t fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node &n = g.nodes[i];
    std::vector<int> gone;
    int x = -1;
    if (n.op == "Div" && n.inputs.size() == 2 && near(scalar_of(g, n.inputs[1]), 6.0f)) {
      Node *mul = single(n.inputs[0], "Mul");
      if (!mul || mul->inputs.size() != 2) continue;
      for (int k = 0; k < 2 && x < 0; ++k) {
        Node *clip = single(mul->inputs[1 - k], "Clip");
        if (!clip) continue;
        const bool bounds =
            g.opset < 11
                ? float_attr(*clip, "min", -1) == 0.0f && float_attr(*clip, "max", -1) == 6.0f
                : clip->inputs.size() == 3 && near(scalar_of(g, clip->inputs[1]), 0.0f) &&
                      near(scalar_of(g, clip->inputs[2]), 6.0f);
        Node *add = bounds ? single(clip->inputs[0], "Add") : nullptr;
        if (!add || add->inputs.size() != 2) continue;
        const int cand = mul->inputs[k];
        if ((add->inputs[0] == cand && near(scalar_of(g, add->inputs[1]), 3.0f)) ||
            (add->inputs[1] == cand && near(scalar_of(g, add->inputs[0]), 3.0f))) {
          x = cand;
          gone = {producer[n.inputs[0]], producer[mul->inputs[1 - k]], producer[clip->inputs[0]]};
        }
      }
    } else if (n.op == "Mul" && n.inputs.size() == 2) {
      for (int k = 0; k < 2 && x < 0; ++k) {
        Node *hs = single(n.inputs[1 - k], "HardSigmoid");
        if (hs && hs->inputs[0] == n.inputs[k] &&
            std::fabs(float_attr(*hs, "alpha", 0.2f) - 1.0f / 6) < 1e-5f &&
            std::fabs(float_attr(*hs, "beta", 0.5f) - 0.5f) < 1e-6f) {
          x = n.inputs[k];
          gone = {producer[n.inputs[1 - k]]};
        }
      }
    }
    if (x < 0) continue;
    for (int d : gone) dead[d] = true;
    n.op = "HardSwish";
    n.inputs = {x};
    n.attrs.clear();
    ++fused;
  }
  erase_nodes(g, dead);
  return fused;
}

size_t fuse_activation_affine(Graph &g) {
  static const std::set<std::string> kActivations = {"Relu", "Sigmoid", "Tanh", "HardSwish",
                                                     "Softplus"};
  const auto [uses, producer] = count_uses(g);
  std::vector<int> reader(g.values.size(), -1);
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (int v : g.nodes[i].inputs)
      if (v >= 0) reader[v] = static_cast<int>(i);
  std::vector<bool> dead(g.nodes.size(), false);
  int64_t rank = 0;
  // The only reader of v when it is Mul (mul) or Add / Sub (!mul) of v and a float32 scalar
  // constant (v first for Sub), else -1; k: the factor or the term added.
  auto affine_step = [&](int v, bool mul, float &k) {
    if (v < 0 || uses[v] != 1 || reader[v] < 0) return -1;
    const Node &c = g.nodes[reader[v]];
    const bool sub = !mul && c.op == "Sub";
    if ((c.op != (mul ? "Mul" : "Add") && !sub) || c.inputs.size() != 2 || c.outputs.size() != 1 ||
        c.inputs[0] == c.inputs[1] || (sub && c.inputs[0] != v))
      return -1;
    const HostTensor *t = f32_constant(g, c.inputs[0] == v ? c.inputs[1] : c.inputs[0]);
    if (!t || t->desc.element_count() != 1 || t->desc.dims.size() > 1) return -1;
    k = sub ? -t->as<float>()[0] : t->as<float>()[0];
    rank = std::max<int64_t>(rank, static_cast<int64_t>(t->desc.dims.size()));
    return reader[v];
  };
  size_t fused = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node &n = g.nodes[i];
    if (dead[i] || !kActivations.count(n.op) || n.inputs.size() != 1 || n.outputs.size() != 1)
      continue;
    float scale = 1, shift = 0;
    rank = 0;
    const int mul = affine_step(n.outputs[0], true, scale);
    const int add = affine_step(mul >= 0 ? g.nodes[mul].outputs[0] : n.outputs[0], false, shift);
    const int last = add >= 0 ? add : mul;
    if (last < 0) continue;
    for (int d : {mul, add})
      if (d >= 0) dead[d] = true;
    n.outputs[0] = g.nodes[last].outputs[0];
    n.attrs[kPostScale] = scale;
    n.attrs[kPostShift] = shift;
    n.attrs[kPostRank] = rank;
    ++fused;
  }
  erase_nodes(g, dead);
  return fused;
}

void remove_dead_nodes(Graph &g) {
  std::vector<bool> needed(g.values.size(), false);
  for (int v : g.outputs) needed[v] = true;
  std::vector<bool> keep(g.nodes.size(), false);
  for (size_t i = g.nodes.size(); i-- > 0;) {
    for (int o : g.nodes[i].outputs)
      if (o >= 0 && needed[o]) keep[i] = true;
    if (keep[i])
      for (int v : g.nodes[i].inputs)
        if (v >= 0) needed[v] = true;
  }
  std::vector<Node> kept;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (keep[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
}

}  // namespace openacl::model
