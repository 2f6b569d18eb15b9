// ONNX Einsum with one or two operands, as transposes, sums and one BatchMatMul: letters only
// one operand has and the output lacks are summed away first; then the letters both operands
// share are batch dims (kept in the output) or contracted (summed). Ellipsis ("...") is
// supported with equal dims; repeated letters in one operand (diagonals), more than two
// operands and broadcasting of size-1 dims are refused with a clear error.
#include <algorithm>
#include <map>

#include "model/lowering_util.h"

namespace openacl::model::lowering_util {
namespace {

using Letters = std::string;

struct Operand {
  int value;
  Letters letters;  // one per dim
};

bool has(const Letters &s, char l) { return s.find(l) != std::string::npos; }

// The stand-ins for the last k dims of an ellipsis: digits, which never name an einsum axis,
// right-aligned ("...": '9' is always its last dim) so operands of different ranks line up.
Letters ellipsis_letters(size_t k) {
  Letters s;
  for (size_t i = 0; i < k; ++i) s.push_back(static_cast<char>('9' - (k - 1 - i)));
  return s;
}

bool is_stand_in(char l) { return l >= '0' && l <= '9'; }

// Replaces "..." in a term (of an operand of this rank, or of the output when rank is 0).
Letters expand_ellipsis(const Node &n, const std::string &term, size_t k) {
  const size_t at = term.find("...");
  if (at == std::string::npos) return term;
  if (k > 10) unsupported(n, "an ellipsis of more than 10 dims");
  return term.substr(0, at) + ellipsis_letters(k) + term.substr(at + 3);
}

// value's dims permuted to `to` (letters of `from`), as a new value (or the same one).
int permute(LoweringContext &c, int v, const Letters &from, const Letters &to) {
  if (from == to) return v;
  std::vector<int64_t> perm;
  for (char l : to) perm.push_back(static_cast<int64_t>(from.find(l)));
  return emit(c, "TransposeD", {v}, {{"perm", perm}});
}

// y = v (letters `from`) with its dims in the order of `to`.
void finish(LoweringContext &c, int v, const Letters &from, const Letters &to,
            std::vector<int64_t> dims, int y) {
  if (from == to) return c.view(v, y, std::move(dims));
  std::vector<int64_t> perm;
  for (char l : to) perm.push_back(static_cast<int64_t>(from.find(l)));
  c.op("TransposeD", {v}, {y}, {{"perm", perm}});
}

// Sums the letters of op that keep (the other operand and the output) does not have.
Operand sum_private(LoweringContext &c, Operand op, const Letters &keep) {
  std::vector<int64_t> axes;
  Letters left;
  for (size_t i = 0; i < op.letters.size(); ++i) {
    if (has(keep, op.letters[i])) left.push_back(op.letters[i]);
    else axes.push_back(static_cast<int64_t>(i));
  }
  if (axes.empty()) return op;
  const int summed = emit(c, "ReduceSumD", {op.value}, {{"axes", axes}, {"keep_dims", false}});
  return {summed, left};
}

void lower_einsum(const Node &n, LoweringContext &c) {
  std::string eq;
  for (char ch : attr_s(n, "equation", "")) {
    if (ch != ' ') eq.push_back(ch);
  }
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t p = 0, q; p <= lhs.size(); p = q + 1) {
    q = lhs.find(',', p);
    if (q == std::string::npos) q = lhs.size();
    terms.push_back(lhs.substr(p, q - p));
  }
  if (terms.size() != n.inputs.size())
    mismatch(n, "the equation '" + eq + "' names " + std::to_string(terms.size()) + " operands");
  if (terms.size() > 2) unsupported(n, "more than two operands");

  std::vector<Operand> ops;
  size_t ellipsis_rank = 0;
  std::map<char, int64_t> size;
  for (size_t i = 0; i < terms.size(); ++i) {
    const auto dims = c.desc(in(n, i)).dims;
    const size_t named =
        terms[i].find("...") == std::string::npos ? terms[i].size() : terms[i].size() - 3;
    if (named > dims.size())
      mismatch(n, "operand '" + terms[i] + "' has rank " + std::to_string(dims.size()));
    const size_t k = terms[i].find("...") == std::string::npos ? 0 : dims.size() - named;
    ellipsis_rank = std::max(ellipsis_rank, k);
    Operand op{in(n, i), expand_ellipsis(n, terms[i], k)};
    if (op.letters.size() != dims.size())
      mismatch(n, "operand '" + terms[i] + "' does not match rank " + std::to_string(dims.size()));
    for (size_t k = 0; k < dims.size(); ++k) {
      const char l = op.letters[k];
      if (op.letters.find(l) != k) unsupported(n, "a repeated letter in one operand (a diagonal)");
      auto [it, fresh] = size.try_emplace(l, dims[k]);
      if (!fresh && it->second != dims[k])
        unsupported(n, std::string("dims of different sizes for '") +
                           (is_stand_in(l) ? "..." : std::string(1, l)) + "' (broadcasting)");
    }
    ops.push_back(std::move(op));
  }
  Letters target;
  if (arrow != std::string::npos) {
    target = expand_ellipsis(n, eq.substr(arrow + 2), ellipsis_rank);
  } else {  // implicit: the ellipsis, then the letters used once, in alphabetical order
    target = ellipsis_letters(ellipsis_rank);
    std::map<char, int> count;
    for (const auto &op : ops)
      for (char l : op.letters) ++count[l];
    for (auto [l, k] : count)
      if (k == 1 && !is_stand_in(l)) target.push_back(l);
  }
  for (size_t i = 0; i < target.size(); ++i)
    if (target.find(target[i]) != i) mismatch(n, "a repeated output letter");
  for (char l : target)
    if (!size.count(l)) mismatch(n, std::string("the output letter '") + l + "' is in no operand");

  std::vector<int64_t> out_dims;
  for (char l : target) out_dims.push_back(size.at(l));
  if (ops.size() == 1) {
    const Operand s = sum_private(c, ops[0], target);
    return finish(c, s.value, s.letters, target, out_dims, out(n, 0));
  }
  const Operand a = sum_private(c, ops[0], ops[1].letters + target);
  const Operand b = sum_private(c, ops[1], ops[0].letters + target);
  Letters batch, contract, free_a, free_b;
  for (char l : a.letters) {
    if (has(b.letters, l)) (has(target, l) ? batch : contract).push_back(l);
    else free_a.push_back(l);
  }
  for (char l : b.letters)
    if (!has(a.letters, l)) free_b.push_back(l);
  auto product_of = [&](const Letters &ls) {
    int64_t p = 1;
    for (char l : ls) p *= size.at(l);
    return p;
  };
  const int64_t nb = product_of(batch), m = product_of(free_a), k = product_of(contract),
                nn = product_of(free_b);
  const int a3 = c.temporary(), b3 = c.temporary();
  c.view(permute(c, a.value, a.letters, batch + free_a + contract), a3, {nb, m, k});
  c.view(permute(c, b.value, b.letters, batch + contract + free_b), b3, {nb, k, nn});
  const Letters result = batch + free_a + free_b;
  std::vector<int64_t> result_dims;
  for (char l : result) result_dims.push_back(size.at(l));
  const int mm = c.temporary();
  c.view(emit(c, "BatchMatMul", {a3, b3}), mm, result_dims);
  finish(c, mm, result, target, out_dims, out(n, 0));
}

}  // namespace

void add_einsum_lowering(std::unordered_map<std::string, Lower> &m) { m["Einsum"] = lower_einsum; }

}  // namespace openacl::model::lowering_util
