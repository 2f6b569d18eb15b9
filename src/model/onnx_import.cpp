#include "model/onnx_import.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <limits>
#include <map>
#include <unordered_map>

#include "model/lowering.h"

namespace openacl::model {
namespace {

using ops::DType;

[[noreturn]] void bad(std::string msg) { fail(Errc::parse_model, std::move(msg)); }

DType to_dtype(int64_t onnx_type, const std::string &what) {
  switch (onnx_type) {
    case onnx::TensorProto::FLOAT:
      return DType::f32;
    case onnx::TensorProto::UINT8:
      return DType::u8;
    case onnx::TensorProto::INT8:
      return DType::i8;
    case onnx::TensorProto::UINT16:
      return DType::u16;
    case onnx::TensorProto::INT16:
      return DType::i16;
    case onnx::TensorProto::INT32:
      return DType::i32;
    case onnx::TensorProto::INT64:
      return DType::i64;
    case onnx::TensorProto::BOOL:
      return DType::boolean;
    case onnx::TensorProto::FLOAT16:
      return DType::f16;
    case onnx::TensorProto::DOUBLE:
      return DType::f64;
    case onnx::TensorProto::UINT32:
      return DType::u32;
    case onnx::TensorProto::UINT64:
      return DType::u64;
    case onnx::TensorProto::BFLOAT16:
      return DType::bf16;
    default:
      bad(what + " has ONNX element type " + std::to_string(onnx_type) +
          ", which openacl does not support");
  }
}

}  // namespace

ops::DType dtype_from_onnx(int64_t onnx_type, const std::string &what) {
  return to_dtype(onnx_type, what);
}

namespace {

// Copies typed repeated fields element by element into the tensor's native layout.
template <class Dst, class Src>
void copy_elements(std::vector<uint8_t> &out, const Src &src) {
  out.resize(src.size() * sizeof(Dst));
  auto *d = reinterpret_cast<Dst *>(out.data());
  for (int i = 0; i < src.size(); ++i) d[i] = static_cast<Dst>(src.Get(i));
}

std::shared_ptr<HostTensor> to_host_tensor(const onnx::TensorProto &t, const std::string &what) {
  auto h = std::make_shared<HostTensor>();
  h->desc.dtype = to_dtype(t.data_type(), what);
  h->desc.format = ops::Format::nd;
  for (int64_t d : t.dims()) {
    if (d < 0) bad(what + " has a negative dimension");
    h->desc.dims.push_back(d);
  }
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    bad(what + " keeps its data in an external file, which openacl does not support");
  const size_t want = h->desc.byte_size();
  if (t.has_raw_data()) {
    h->data.assign(t.raw_data().begin(), t.raw_data().end());
  } else {
    switch (h->desc.dtype) {
      case DType::f32:
        copy_elements<float>(h->data, t.float_data());
        break;
      case DType::f64:
        copy_elements<double>(h->data, t.double_data());
        break;
      case DType::i64:
        copy_elements<int64_t>(h->data, t.int64_data());
        break;
      case DType::i32:
        copy_elements<int32_t>(h->data, t.int32_data());
        break;
      case DType::i16:
        copy_elements<int16_t>(h->data, t.int32_data());
        break;
      case DType::u16:
      case DType::f16:
      case DType::bf16:
        copy_elements<uint16_t>(h->data, t.int32_data());
        break;
      case DType::i8:
        copy_elements<int8_t>(h->data, t.int32_data());
        break;
      case DType::u8:
      case DType::boolean:
        copy_elements<uint8_t>(h->data, t.int32_data());
        break;
      case DType::u32:
        copy_elements<uint32_t>(h->data, t.uint64_data());
        break;
      case DType::u64:
        copy_elements<uint64_t>(h->data, t.uint64_data());
        break;
      default:
        bad(what + ": unsupported element type");
    }
  }
  if (h->data.size() != want)
    bad(what + " holds " + std::to_string(h->data.size()) + " bytes of data, its shape needs " +
        std::to_string(want) + " (truncated or corrupt model)");
  return h;
}

// Graph outputs may leave their shape to inference (shape_required false).
ops::TensorDesc to_desc(const onnx::ValueInfoProto &vi, const std::string &what,
                        bool shape_required = true) {
  if (!vi.type().has_tensor_type()) bad(what + " '" + vi.name() + "' is not a tensor");
  const auto &tt = vi.type().tensor_type();
  ops::TensorDesc desc;
  desc.dtype = to_dtype(tt.elem_type(), what + " '" + vi.name() + "'");
  desc.format = ops::Format::nd;
  if (!tt.has_shape()) {
    if (shape_required) bad(what + " '" + vi.name() + "' has no shape (rank unknown)");
    desc.dims = {-2};  // unknown rank, as aclTensorDesc writes it
    return desc;
  }
  for (const auto &d : tt.shape().dim())
    desc.dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
  if (desc.dims.size() == 4) desc.format = ops::Format::nchw;
  return desc;
}

ops::Attrs to_attrs(const onnx::NodeProto &n, const std::string &where) {
  ops::Attrs attrs;
  for (const auto &a : n.attribute()) {
    switch (a.type()) {
      case onnx::AttributeProto::INT:
        attrs[a.name()] = static_cast<int64_t>(a.i());
        break;
      case onnx::AttributeProto::FLOAT:
        attrs[a.name()] = a.f();
        break;
      case onnx::AttributeProto::STRING:
        attrs[a.name()] = a.s();
        break;
      case onnx::AttributeProto::INTS:
        attrs[a.name()] = std::vector<int64_t>(a.ints().begin(), a.ints().end());
        break;
      case onnx::AttributeProto::FLOATS:
        attrs[a.name()] = std::vector<float>(a.floats().begin(), a.floats().end());
        break;
      case onnx::AttributeProto::STRINGS:
        attrs[a.name()] = std::vector<std::string>(a.strings().begin(), a.strings().end());
        break;
      case onnx::AttributeProto::TENSOR:
        // Constant reads its own; others (ConstantOfShape's value) get the bytes and dtype.
        if (n.op_type() != "Constant") {
          auto t = to_host_tensor(a.t(), where + ": attribute '" + a.name() + "'");
          attrs[a.name()] = std::move(t->data);
          attrs[a.name() + ":dtype"] = t->desc.dtype;
        }
        break;
      default:
        // Graphs (If, Loop) and sparse tensors are not supported.
        fail(Errc::model_unsupported_op,
             where + ": attribute '" + a.name() + "' of a kind openacl does not support");
    }
  }
  return attrs;
}

// The value of a Constant node, from whichever attribute holds it.
std::shared_ptr<HostTensor> constant_value(const onnx::NodeProto &n, const std::string &where) {
  for (const auto &a : n.attribute()) {
    auto scalar = [&](DType t, std::vector<int64_t> dims, const void *p, size_t bytes) {
      auto h = std::make_shared<HostTensor>();
      h->desc.dtype = t;
      h->desc.dims = std::move(dims);
      h->data.assign(static_cast<const uint8_t *>(p), static_cast<const uint8_t *>(p) + bytes);
      return h;
    };
    if (a.name() == "value") return to_host_tensor(a.t(), where);
    if (a.name() == "value_float") {
      float f = a.f();
      return scalar(DType::f32, {}, &f, 4);
    }
    if (a.name() == "value_int") {
      int64_t i = a.i();
      return scalar(DType::i64, {}, &i, 8);
    }
    if (a.name() == "value_floats") {
      std::vector<float> v(a.floats().begin(), a.floats().end());
      return scalar(DType::f32, {static_cast<int64_t>(v.size())}, v.data(), v.size() * 4);
    }
    if (a.name() == "value_ints") {
      std::vector<int64_t> v(a.ints().begin(), a.ints().end());
      return scalar(DType::i64, {static_cast<int64_t>(v.size())}, v.data(), v.size() * 8);
    }
  }
  fail(Errc::model_unsupported_op, where + ": Constant without a supported value attribute");
}

// ONNX requires topological order, but some exporters do not follow it: sort when needed.
std::vector<int> topological_order(const onnx::GraphProto &g,
                                   const std::unordered_map<std::string, int> &known) {
  const int n = g.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < n; ++i)
    for (const auto &o : g.node(i).output())
      if (!o.empty()) producer[o] = i;
  std::vector<int> order, state(n, 0);  // 0 new, 1 visiting, 2 done
  std::vector<std::pair<int, int>> stack;
  for (int root = 0; root < n; ++root) {
    if (state[root]) continue;
    stack.push_back({root, 0});
    state[root] = 1;
    while (!stack.empty()) {
      auto &[node, next] = stack.back();
      const auto &np = g.node(node);
      if (next < np.input_size()) {
        const std::string &in = np.input(next++);
        if (in.empty() || known.count(in)) continue;
        auto it = producer.find(in);
        if (it == producer.end())
          bad("node '" + np.name() + "' (" + np.op_type() + ") reads tensor '" + in +
              "', which nothing defines");
        if (state[it->second] == 1) bad("the graph has a cycle through node '" + np.name() + "'");
        if (state[it->second] == 0) {
          state[it->second] = 1;
          stack.push_back({it->second, 0});
        }
        continue;
      }
      state[node] = 2;
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace

Graph import_onnx(const void *data, size_t size) {
  if (size > static_cast<size_t>(std::numeric_limits<int>::max())) bad("model larger than 2 GiB");
  onnx::ModelProto m;
  if (!m.ParseFromArray(data, static_cast<int>(size)))
    bad("not a valid ONNX model: protobuf parsing failed (truncated or corrupt file?)");
  if (!m.has_graph() || m.graph().node_size() == 0)
    bad("not a valid ONNX model: it has no graph (wrong file type, or truncated?)");
  if (m.ir_version() <= 0) bad("not a valid ONNX model: ir_version is missing");

  Graph graph;
  for (const auto &o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") graph.opset = o.version();
  if (graph.opset == 0) bad("the model imports no opset of the default ONNX domain");
  if (graph.opset < kMinOpset || graph.opset > kMaxOpset)
    bad("the model uses ONNX opset " + std::to_string(graph.opset) + "; openacl runs opsets " +
        std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset));

  const onnx::GraphProto &g = m.graph();
  graph.name = g.name();
  std::unordered_map<std::string, int> ids;
  for (const auto &t : g.initializer()) {
    if (ids.count(t.name())) bad("initializer '" + t.name() + "' is defined twice");
    auto h = to_host_tensor(t, "initializer '" + t.name() + "'");
    ids[t.name()] = graph.add_value(t.name(), h->desc, h);
  }
  for (const auto &vi : g.input()) {
    if (ids.count(vi.name())) continue;  // an initializer listed as input (IR < 4): a constant
    ids[vi.name()] = graph.add_value(vi.name(), to_desc(vi, "input"));
    graph.inputs.push_back(ids[vi.name()]);
  }

  for (int index : topological_order(g, ids)) {
    const onnx::NodeProto &np = g.node(index);
    Node node;
    node.op = np.op_type();
    node.name = np.name().empty() ? np.op_type() + "#" + std::to_string(index) : np.name();
    const std::string where = "node '" + node.name + "' (" + node.op + ")";
    if (!np.domain().empty() && np.domain() != "ai.onnx")
      fail(Errc::model_unsupported_op, "the model uses op '" + np.domain() + "::" + np.op_type() +
                                           "' (" + where + "), which openacl does not support");
    if (!is_supported_onnx_op(node.op))
      fail(Errc::model_unsupported_op, "the model uses op '" + node.op + "' (node '" + node.name +
                                           "'), which openacl does not support");
    node.attrs = to_attrs(np, where);
    for (const auto &in : np.input()) node.inputs.push_back(in.empty() ? -1 : ids.at(in));
    for (const auto &out : np.output()) {
      if (out.empty()) {
        node.outputs.push_back(-1);
        continue;
      }
      if (ids.count(out)) bad(where + " redefines tensor '" + out + "'");
      std::shared_ptr<HostTensor> constant;
      if (node.op == "Constant") constant = constant_value(np, where);
      ops::TensorDesc desc = constant
                                 ? constant->desc
                                 : ops::TensorDesc{ops::DType::undefined, {}, ops::Format::nd, {}};
      ids[out] = graph.add_value(out, desc, constant);
      node.outputs.push_back(ids[out]);
    }
    if (node.op != "Constant") graph.nodes.push_back(std::move(node));
  }

  for (const auto &vi : g.output()) {
    auto it = ids.find(vi.name());
    if (it == ids.end()) bad("graph output '" + vi.name() + "' is not computed by any node");
    Value &v = graph.values[it->second];
    if (!v.constant) v.desc = to_desc(vi, "output", false);
    graph.outputs.push_back(it->second);
  }
  if (graph.outputs.empty()) bad("the graph has no outputs");
  return graph;
}

}  // namespace openacl::model
