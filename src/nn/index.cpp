// Gathers along one dim: IndexSelect, GatherV2 and Embedding on the op library's GatherV2D
// kernel.
// Indices out of range fail the stream (as the kernel reports them) rather than the call.
#include "nn/planner.h"

namespace openacl::nn {

namespace {

using D = ops::DType;

void gather(Planner &p, bool index_1d) {
  const aclTensor &self = p.tensor(0, "self");
  const aclTensor &index = p.tensor(2, "index");
  const aclTensor &out = p.tensor(3, "out");
  p.dtype_in(self, "self",
             {D::f32, D::f16, D::bf16, D::f64, D::i8, D::u8, D::i16, D::i32, D::i64, D::boolean});
  p.dtype_in(index, "index", {D::i32, D::i64});
  const auto rank = static_cast<int64_t>(self.view.dims.size());
  int64_t dim = p.i64(1);
  if (rank == 0 || dim < -rank || dim >= rank)
    p.invalid("dim " + std::to_string(dim) + " is out of range for self of rank " +
              std::to_string(rank));
  if (dim < 0) dim += rank;
  if (index_1d && index.view.dims.size() > 1)
    p.invalid("index has rank " + std::to_string(index.view.dims.size()) +
              "; it must be 0-d or 1-d");
  std::vector<int64_t> shape(self.view.dims.begin(), self.view.dims.begin() + dim);
  if (index_1d) shape.push_back(index.view.numel());
  else shape.insert(shape.end(), index.view.dims.begin(), index.view.dims.end());
  shape.insert(shape.end(), self.view.dims.begin() + dim + 1, self.view.dims.end());
  p.same_shape(out, "out", shape, "the gathered shape");
  if (out.dtype != self.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", self " +
              ops::dtype_name(self.dtype));
  const size_t x = p.input(self, "self");
  size_t i = p.input(index, "index");
  const size_t o = p.output(out, "out");
  if (index_1d) i = p.reshape(p.dense(i), {index.view.numel()});
  p.store(p.op1("GatherV2D", {x, i}, {{"axis", dim}}), o);
}

void plan_index_select(Planner &p) { gather(p, true); }

// out = rows of weight picked by indices (any shape): out's shape is indices' then weight's
// row shape.
void plan_embedding(Planner &p) {
  const aclTensor &weight = p.tensor(0, "weight");
  const aclTensor &indices = p.tensor(1, "indices");
  const aclTensor &out = p.tensor(2, "out");
  p.dtype_in(weight, "weight",
             {D::f32, D::f16, D::bf16, D::f64, D::i8, D::u8, D::i16, D::i32, D::i64, D::boolean});
  p.dtype_in(indices, "indices", {D::i32, D::i64});
  if (weight.view.dims.empty()) p.invalid("weight is 0-d");
  std::vector<int64_t> shape = indices.view.dims;
  shape.insert(shape.end(), weight.view.dims.begin() + 1, weight.view.dims.end());
  p.same_shape(out, "out", shape, "indices' shape then weight's row shape");
  if (out.dtype != weight.dtype)
    p.invalid(std::string("out has dtype ") + ops::dtype_name(out.dtype) + ", weight " +
              ops::dtype_name(weight.dtype));
  const size_t w = p.input(weight, "weight");
  const size_t i = p.input(indices, "indices");
  const size_t o = p.output(out, "out");
  p.store(p.op1("GatherV2D", {w, i}, {{"axis", int64_t{0}}}), o);
}
void plan_gather_v2(Planner &p) { gather(p, false); }

const Registrar reg({{"IndexSelect", plan_index_select},
                     {"GatherV2", plan_gather_v2},
                     {"Embedding", plan_embedding}});

}  // namespace

}  // namespace openacl::nn
