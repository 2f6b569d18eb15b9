// ONNX LSTM and GRU, unrolled over the time steps (plans are specialized to the input shapes,
// so the sequence length is known): the input projection of all steps is one MatMul, then per
// step a MatMul with the recurrence weights and the gate arithmetic. Forward, reverse and
// bidirectional; layout 0 and 1; optional bias and initial states; float32; default
// activations. Peepholes, clip, input_forget, other activations and per-batch sequence
// lengths shorter than the input are refused with a clear error.
#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

struct Rnn {
  int64_t steps = 0, batch = 0, input = 0, hidden = 0, dirs = 1;
  bool reverse_only = false, batch_first = false;
};

int reshape(LoweringContext &c, int v, std::vector<int64_t> dims) {
  const int t = c.temporary();
  c.view(v, t, std::move(dims));
  return t;
}

int slice(LoweringContext &c, int v, std::vector<int64_t> offsets, std::vector<int64_t> size) {
  return emit(c, "SliceD", {v}, {{"offsets", std::move(offsets)}, {"size", std::move(size)}});
}

// x [M, K] times w [N, K] transposed.
int matmul_t(LoweringContext &c, int x, int w) {
  return emit(c, "MatMulV2", {x, w}, {{"transpose_x2", true}});
}

std::vector<int> split(LoweringContext &c, int v, int64_t parts, int64_t size, int64_t dim) {
  std::vector<int> outs;
  for (int64_t k = 0; k < parts; ++k) outs.push_back(c.temporary());
  c.op("SplitVD", {v}, outs,
       {{"size_splits", std::vector<int64_t>(static_cast<size_t>(parts), size)},
        {"split_dim", dim},
        {"num_split", parts}});
  return outs;
}

int concat(LoweringContext &c, const std::vector<int> &parts, int64_t dim, int out = -1) {
  if (parts.size() == 1 && out < 0) return parts[0];
  const int t = out >= 0 ? out : c.temporary();
  c.op("ConcatD", parts, {t}, {{"concat_dim", dim}, {"N", static_cast<int64_t>(parts.size())}});
  return t;
}

int zeros(LoweringContext &c, std::vector<int64_t> dims) {
  auto t = std::make_shared<HostTensor>();
  t->desc.dtype = DType::f32;
  t->desc.dims = std::move(dims);
  t->data.assign(t->desc.byte_size(), 0);
  return c.constant_value(t);
}

Rnn check_rnn(const Node &n, LoweringContext &c, int64_t gates,
              const std::vector<std::string> &default_acts) {
  for (int k : {0, 1, 2}) require_f32(n, c, in(n, static_cast<size_t>(k)));
  if (has_attr(n, "clip")) unsupported(n, "clip");
  if (attr_i(n, "input_forget", 0) != 0) unsupported(n, "input_forget");
  Rnn r;
  const std::string direction = attr_s(n, "direction", "forward");
  if (direction == "bidirectional") r.dirs = 2;
  else if (direction == "reverse") r.reverse_only = true;
  else if (direction != "forward") mismatch(n, "direction '" + direction + "'");
  if (const auto *acts = find_attr<std::vector<std::string>>(n, "activations")) {
    for (size_t k = 0; k < acts->size(); ++k)
      if ((*acts)[k] != default_acts[k % default_acts.size()])
        unsupported(n, "activation '" + (*acts)[k] + "' (only the defaults are)");
  }
  r.batch_first = attr_i(n, "layout", 0) != 0;
  const auto x = c.desc(in(n, 0)).dims;
  if (x.size() != 3) mismatch(n, "X must have rank 3");
  r.steps = r.batch_first ? x[1] : x[0];
  r.batch = r.batch_first ? x[0] : x[1];
  r.input = x[2];
  const auto w = c.desc(in(n, 1)).dims;
  r.hidden = attr_i(n, "hidden_size", w.size() == 3 ? w[1] / gates : 0);
  if (w != std::vector<int64_t>{r.dirs, gates * r.hidden, r.input})
    mismatch(n, "W has shape " + ops::dims_str(w) + ", not [" + std::to_string(r.dirs) + "," +
                    std::to_string(gates * r.hidden) + "," + std::to_string(r.input) + "]");
  if (c.desc(in(n, 2)).dims != std::vector<int64_t>{r.dirs, gates * r.hidden, r.hidden})
    mismatch(n, "R has the wrong shape");
  if (const int lens = in(n, 4); lens >= 0 && !is_empty_tensor(c, lens)) {
    for (int64_t l : const_ints(n, c, lens, "sequence_lens"))
      if (l != r.steps)
        unsupported(n,
                    "sequence_lens shorter than the input's " + std::to_string(r.steps) + " steps");
  }
  if (r.steps < 1) mismatch(n, "the input has no time steps");
  return r;
}

// Direction d's slice of a [dirs, A, B] weight, as [A, B].
int weight(LoweringContext &c, int w, int64_t d) {
  auto dims = c.desc(w).dims;
  return reshape(c, slice(c, w, {d, 0, 0}, {1, dims[1], dims[2]}), {dims[1], dims[2]});
}

// Direction d's initial state from input k ([dirs, B, H]; layout 1: [B, dirs, H]), or zeros.
int initial_state(const Node &n, LoweringContext &c, size_t k, const Rnn &r, int64_t d) {
  const int v = in(n, k);
  if (v < 0 || is_empty_tensor(c, v)) return zeros(c, {r.batch, r.hidden});
  const int part = r.batch_first ? slice(c, v, {0, d, 0}, {r.batch, 1, r.hidden})
                                 : slice(c, v, {d, 0, 0}, {1, r.batch, r.hidden});
  return reshape(c, part, {r.batch, r.hidden});
}

// X as [T * B, I] in time-major order.
int time_major_rows(const Node &n, LoweringContext &c, const Rnn &r) {
  int x = in(n, 0);
  if (r.batch_first) x = emit(c, "TransposeD", {x}, {{"perm", std::vector<int64_t>{1, 0, 2}}});
  return reshape(c, x, {r.steps * r.batch, r.input});
}

// The per-step outputs [B, H] (in time order) and the final states of every direction written
// to the node's outputs: Y [T, dirs, B, H] (layout 1: [B, T, dirs, H]), Y_h / Y_c [dirs, B, H]
// (layout 1: [B, dirs, H]).
void write_outputs(const Node &n, LoweringContext &c, const Rnn &r,
                   const std::vector<std::vector<int>> &ys,
                   const std::vector<std::vector<int>> &finals) {
  if (out(n, 0) >= 0) {
    std::vector<int> per_dir;
    for (const auto &steps : ys) {
      std::vector<int> shaped;
      for (int h : steps) shaped.push_back(reshape(c, h, {1, 1, r.batch, r.hidden}));
      per_dir.push_back(concat(c, shaped, 0));
    }
    if (r.batch_first) {
      const int y = concat(c, per_dir, 1);
      c.op("TransposeD", {y}, {out(n, 0)}, {{"perm", std::vector<int64_t>{2, 0, 1, 3}}});
    } else {
      concat(c, per_dir, 1, out(n, 0));
    }
  }
  for (size_t k = 0; k < finals.size(); ++k) {
    if (out(n, k + 1) < 0) continue;
    std::vector<int> shaped;
    for (int h : finals[k]) shaped.push_back(reshape(c, h, {1, r.batch, r.hidden}));
    if (r.batch_first) {
      const int y = concat(c, shaped, 0);
      c.op("TransposeD", {y}, {out(n, k + 1)}, {{"perm", std::vector<int64_t>{1, 0, 2}}});
    } else {
      concat(c, shaped, 0, out(n, k + 1));
    }
  }
}

// The input projection of every step plus the input bias: [T, B, G * H].
int projected_input(const Node &n, LoweringContext &c, const Rnn &r, int64_t gates, int64_t d,
                    int rows) {
  int xw = matmul_t(c, rows, weight(c, in(n, 1), d));
  if (const int b = in(n, 3); b >= 0 && !is_empty_tensor(c, b)) {
    const int wb = reshape(c, slice(c, b, {d, 0}, {1, gates * r.hidden}), {gates * r.hidden});
    xw = emit(c, "Add", {xw, wb});
  }
  return reshape(c, xw, {r.steps, r.batch, gates * r.hidden});
}

// Direction d's recurrence bias [G * H] (the second half of B), or -1 without B.
int recurrence_bias(const Node &n, LoweringContext &c, const Rnn &r, int64_t gates, int64_t d) {
  const int b = in(n, 3);
  if (b < 0 || is_empty_tensor(c, b)) return -1;
  return reshape(c, slice(c, b, {d, gates * r.hidden}, {1, gates * r.hidden}), {gates * r.hidden});
}

int step_input(LoweringContext &c, const Rnn &r, int xw, int64_t gates, int64_t t) {
  return reshape(c, slice(c, xw, {t, 0, 0}, {1, r.batch, gates * r.hidden}),
                 {r.batch, gates * r.hidden});
}

void lower_lstm(const Node &n, LoweringContext &c) {
  const Rnn r = check_rnn(n, c, 4, {"Sigmoid", "Tanh", "Tanh"});
  if (in(n, 7) >= 0 && !is_empty_tensor(c, in(n, 7))) unsupported(n, "peepholes (input P)");
  const int rows = time_major_rows(n, c, r);
  std::vector<std::vector<int>> ys(static_cast<size_t>(r.dirs)), finals(2);
  for (int64_t d = 0; d < r.dirs; ++d) {
    const bool reverse = r.reverse_only || d == 1;
    const int xw = projected_input(n, c, r, 4, d, rows);
    const int rw = weight(c, in(n, 2), d), rb = recurrence_bias(n, c, r, 4, d);
    int h = initial_state(n, c, 5, r, d), cell = initial_state(n, c, 6, r, d);
    std::vector<int> &y = ys[static_cast<size_t>(d)];
    y.assign(static_cast<size_t>(r.steps), -1);
    for (int64_t s = 0; s < r.steps; ++s) {
      const int64_t t = reverse ? r.steps - 1 - s : s;
      int g = emit(c, "Add", {step_input(c, r, xw, 4, t), matmul_t(c, h, rw)});
      if (rb >= 0) g = emit(c, "Add", {g, rb});
      const auto gate = split(c, g, 4, r.hidden, 1);  // ONNX order: i, o, f, c
      const int i = emit(c, "Sigmoid", {gate[0]}), o = emit(c, "Sigmoid", {gate[1]});
      const int f = emit(c, "Sigmoid", {gate[2]}), cand = emit(c, "Tanh", {gate[3]});
      cell = emit(c, "Add", {emit(c, "Mul", {f, cell}), emit(c, "Mul", {i, cand})});
      h = emit(c, "Mul", {o, emit(c, "Tanh", {cell})});
      y[static_cast<size_t>(t)] = h;
    }
    finals[0].push_back(h);
    finals[1].push_back(cell);
  }
  write_outputs(n, c, r, ys, finals);
}

void lower_gru(const Node &n, LoweringContext &c) {
  const Rnn r = check_rnn(n, c, 3, {"Sigmoid", "Tanh"});
  const bool linear_before_reset = attr_i(n, "linear_before_reset", 0) != 0;
  const int rows = time_major_rows(n, c, r);
  const int64_t hs = r.hidden;
  std::vector<std::vector<int>> ys(static_cast<size_t>(r.dirs)), finals(1);
  for (int64_t d = 0; d < r.dirs; ++d) {
    const bool reverse = r.reverse_only || d == 1;
    const int xw = projected_input(n, c, r, 3, d, rows);
    const int rw = weight(c, in(n, 2), d);  // [3H, H]: z, r, h
    const int r_zr = slice(c, rw, {0, 0}, {2 * hs, hs}), r_h = slice(c, rw, {2 * hs, 0}, {hs, hs});
    int rb_zr = -1, rb_h = -1;
    if (const int rb = recurrence_bias(n, c, r, 3, d); rb >= 0) {
      rb_zr = slice(c, rb, {0}, {2 * hs});
      rb_h = slice(c, rb, {2 * hs}, {hs});
    }
    int h = initial_state(n, c, 5, r, d);
    std::vector<int> &y = ys[static_cast<size_t>(d)];
    y.assign(static_cast<size_t>(r.steps), -1);
    for (int64_t s = 0; s < r.steps; ++s) {
      const int64_t t = reverse ? r.steps - 1 - s : s;
      const auto x = split(c, step_input(c, r, xw, 3, t), 3, hs, 1);  // z, r, h
      int hzr = matmul_t(c, h, r_zr);
      if (rb_zr >= 0) hzr = emit(c, "Add", {hzr, rb_zr});
      const auto hg = split(c, hzr, 2, hs, 1);
      const int z = emit(c, "Sigmoid", {emit(c, "Add", {x[0], hg[0]})});
      const int reset = emit(c, "Sigmoid", {emit(c, "Add", {x[1], hg[1]})});
      int rec;
      if (linear_before_reset) {
        rec = matmul_t(c, h, r_h);
        if (rb_h >= 0) rec = emit(c, "Add", {rec, rb_h});
        rec = emit(c, "Mul", {reset, rec});
      } else {
        rec = matmul_t(c, emit(c, "Mul", {reset, h}), r_h);
        if (rb_h >= 0) rec = emit(c, "Add", {rec, rb_h});
      }
      const int cand = emit(c, "Tanh", {emit(c, "Add", {x[2], rec})});
      // (1 - z) * cand + z * h  ==  cand + z * (h - cand)
      h = emit(c, "Add", {cand, emit(c, "Mul", {z, emit(c, "Sub", {h, cand})})});
      y[static_cast<size_t>(t)] = h;
    }
    finals[0].push_back(h);
  }
  write_outputs(n, c, r, ys, finals);
}

}  // namespace

void add_rnn_lowerings(std::unordered_map<std::string, Lower> &m) {
  m["LSTM"] = lower_lstm;
  m["GRU"] = lower_gru;
}

}  // namespace openacl::model::lowering_util
