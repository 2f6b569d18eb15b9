#include "ops/call.h"

#include <algorithm>

#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/stream.h"
#include "core/task.h"
#include "core/tasks.h"
#include "ops/dump.h"
#include "ops/non_finite.h"
#include "ops/op_cache.h"

namespace openacl::ops {
namespace {

std::string idx(const char *what, size_t i) {
  return std::string(what) + "[" + std::to_string(i) + "]";
}

// Descriptors as the op library sees them; const and host-placed inputs carry their bytes.
// The bytes d describes, which buf must hold.
size_t needed_bytes(const std::string &op_type, const char *what, size_t i, const TensorDesc &d,
                    const BufferView &buf, Errc code) {
  const size_t need = d.byte_size();
  if (buf.length < need)
    fail(code, op_type + ": " + what + " " + std::to_string(i) + " buffer holds " +
                   std::to_string(buf.length) + " bytes; its descriptor " + dtype_name(d.dtype) +
                   dims_str(d.dims) + " needs " + std::to_string(need));
  return need;
}

std::vector<TensorDesc> to_descs(std::span<const DescView> views, const char *name,
                                 std::span<const BufferView> buffers, std::vector<bool> *host) {
  std::vector<TensorDesc> out;
  out.reserve(views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    const DescView &v = views[i];
    if (!v.given) fail(Errc::invalid_argument, idx(name, i) + " is NULL");
    TensorDesc &d = out.emplace_back();
    d.dtype = v.dtype;
    d.format = v.format;
    d.dims.assign(v.dims.begin(), v.dims.end());
    if (host) host->push_back(v.on_host);
    if (v.const_value != nullptr) {
      d.value = *v.const_value;
    } else if (v.on_host && i < buffers.size() && buffers[i].given && buffers[i].data != nullptr) {
      const auto *p = static_cast<const uint8_t *>(buffers[i].data);
      d.value.assign(p, p + std::min(buffers[i].length, d.byte_size()));
    }
  }
  return out;
}

// [p, p+n) must lie in one device allocation. The common (valid) case takes one lookup; the
// memory map's own check runs only to word the error.
// Names the buffer (array[i]) only then: building the name costs more than the lookup.
void check_device(const MemoryMap &memory, const void *p, size_t n, const char *array, size_t i) {
  auto a = memory.find(p);
  const auto addr = reinterpret_cast<uintptr_t>(p);
  if (a && a->kind == MemoryKind::device && n <= a->size - (addr - a->base)) return;
  const std::string what = idx(array, i);
  memory.check_device_range(p, n, what.c_str());
  fail(Errc::invalid_argument, what + " is not a valid device range");
}

// spare: the cached op's slot for finished calls' tensor lists (their descriptors are
// in_descs and out_descs), or nullptr.
BoundCall bind_tensors(const std::string &op_type, std::shared_ptr<const PreparedOp> op,
                       TensorSpare *spare, const std::vector<TensorDesc> &in_descs,
                       const std::vector<bool> &host, std::span<const BufferView> inputs,
                       const std::vector<TensorDesc> &out_descs,
                       std::span<const BufferView> outputs) {
  auto &memory = Runtime::get().memory();
  BoundCall b{op_type, std::move(op), spare ? spare->take() : nullptr, spare, {}};
  if (!b.tensors) {
    b.tensors = std::make_unique<TensorLists>();
    b.tensors->inputs.reserve(in_descs.size());
    for (const auto &d : in_descs) b.tensors->inputs.push_back({d, nullptr, 0});
    b.tensors->outputs.reserve(out_descs.size());
    for (const auto &d : out_descs) b.tensors->outputs.push_back({d, nullptr, 0});
  }
  for (size_t i = 0; i < in_descs.size(); ++i) {
    const auto &d = in_descs[i];
    Tensor &t = b.tensors->inputs[i];
    t.data = nullptr;
    t.bytes = 0;
    if (d.dtype == DType::undefined) continue;  // an unused optional input
    const BufferView &buf = inputs[i];
    if (!buf.given) fail(Errc::invalid_argument, idx("inputs", i) + " is NULL");
    const size_t need = needed_bytes(op_type, "input", i, d, buf, Errc::op_input_not_match);
    t.data = buf.data;
    t.bytes = buf.length;
    if (need != 0 && buf.data == nullptr)
      fail(Errc::invalid_argument, idx("inputs", i) + " has a NULL data address");
    if (need != 0 && host[i]) {
      const auto *p = static_cast<const uint8_t *>(buf.data);
      auto copy = std::make_shared<std::vector<uint8_t>>(p, p + need);
      t.data = copy->data();
      b.host_copies.push_back(std::move(copy));
    } else if (need != 0) {
      check_device(memory, buf.data, need, "inputs", i);
    }
  }
  for (size_t i = 0; i < out_descs.size(); ++i) {
    const auto &d = out_descs[i];
    const BufferView &buf = outputs[i];
    if (!buf.given) fail(Errc::invalid_argument, idx("outputs", i) + " is NULL");
    const size_t need = needed_bytes(op_type, "output", i, d, buf, Errc::op_output_not_match);
    if (need != 0) check_device(memory, buf.data, need, "outputs", i);
    Tensor &t = b.tensors->outputs[i];
    t.data = buf.data;
    t.bytes = buf.length;
  }
  return b;
}

bool same_desc(const TensorDesc &d, const DescView &v) {
  return d.dtype == v.dtype &&
         std::equal(d.dims.begin(), d.dims.end(), v.dims.begin(), v.dims.end()) &&
         d.format == v.format &&
         (v.const_value != nullptr ? d.value == *v.const_value : d.value.empty());
}

// Ops whose descriptors are all device-placed or const have nothing call-specific in them:
// those are cached.
bool cacheable(std::span<const DescView> inputs, std::span<const DescView> outputs) {
  for (const auto &v : inputs)
    if (!v.given || (v.on_host && v.const_value == nullptr)) return false;
  for (const auto &v : outputs)
    if (!v.given) return false;
  return true;
}

// The op on the AI cores the task is given, recording the memory it reads and writes.
class OpTask final : public Task {
 public:
  OpTask(BoundCall call, OpDumper dump)
      : Task(TaskKind::op), call_(std::move(call)), dump_(std::move(dump)) {
    for (const auto &t : call_.tensors->inputs)
      if (t.data != nullptr) add_range(t.data, bytes(t), false);
    for (const auto &t : call_.tensors->outputs) add_range(t.data, bytes(t), true);
  }
  ~OpTask() override {
    if (call_.spare) call_.spare->give(std::move(call_.tensors));
  }
  void run(ExecContext &ctx) override {
    const TensorLists &t = *call_.tensors;
    call_.op->run(t.inputs, t.outputs, ctx.cores);
    if (dump_) dump_(ctx.device.backend(), call_.op_type, t.inputs, t.outputs);
    if (overflow_check && std::any_of(t.outputs.begin(), t.outputs.end(), has_non_finite))
      Runtime::get().note_overflow();
  }
  // A small elementwise op on a stream at rest costs less to run than to hand to a worker and
  // take back at the synchronize (issue 16: a 1-element Add + synchronize).
  bool runs_at_call() const override {
    return call_.op->per_element() && !dump_ && bytes_ <= kRunAtCallBytes;
  }
  std::string label() const override { return call_.op_type; }
  std::unique_ptr<Task> replica(const std::shared_ptr<Stream> &) const override {
    BoundCall copy{call_.op_type, call_.op, std::make_unique<TensorLists>(*call_.tensors),
                   call_.spare, call_.host_copies};
    return std::make_unique<OpTask>(std::move(copy), dump_);
  }

 private:
  size_t bytes(const Tensor &t) {
    const size_t n = t.desc.byte_size();
    bytes_ += n;
    return n;
  }

  BoundCall call_;
  OpDumper dump_;
  size_t bytes_ = 0;
};

}  // namespace

Target call_target() {
  try {
    Device &device = Runtime::get().current_context()->device();
    return {&device.backend().kernels(), device.cores().count()};
  } catch (const Error &) {
    return {&host_kernels(), 1};
  }
}

PreparedCall prepare_call(const std::string &op_type, std::span<const DescView> inputs,
                          std::span<const BufferView> input_buffers,
                          std::span<const DescView> outputs, const Attrs &attrs,
                          const char *in_name, const char *out_name) {
  PreparedCall p;
  p.op_type = op_type;
  p.inputs = to_descs(inputs, in_name, input_buffers, &p.host_inputs);
  p.outputs = to_descs(outputs, out_name, {}, nullptr);
  const Target target = call_target();
  p.op = prepare(*target.kernels, op_type, p.inputs, p.outputs, attrs, target.threads);
  return p;
}

std::vector<TensorDesc> infer_call(const std::string &op_type, std::span<const DescView> inputs,
                                   std::span<const BufferView> input_buffers, const Attrs &attrs) {
  return infer(op_type, to_descs(inputs, "inputDesc", input_buffers, nullptr), attrs);
}

BoundCall bind_call(const PreparedCall &op, std::span<const BufferView> inputs,
                    std::span<const BufferView> outputs) {
  return bind_tensors(op.op_type, op.op, nullptr, op.inputs, op.host_inputs, inputs, op.outputs,
                      outputs);
}

BoundCall bind_call(const std::string &op_type, std::span<const DescView> input_descs,
                    std::span<const BufferView> inputs, std::span<const DescView> output_descs,
                    std::span<const BufferView> outputs, const Attrs &attrs) {
  const bool cache_it = cacheable(input_descs, output_descs);
  OpCache &cache = OpCache::of_this_thread();
  if (cache_it) {
    const CachedOp *c = cache.find([&](const CachedOp &e) {
      if (e.op_type != op_type || e.inputs.size() != input_descs.size() ||
          e.outputs.size() != output_descs.size() || e.attrs != attrs)
        return false;
      for (size_t i = 0; i < input_descs.size(); ++i)
        if (e.host_inputs[i] != input_descs[i].on_host || !same_desc(e.inputs[i], input_descs[i]))
          return false;
      for (size_t i = 0; i < output_descs.size(); ++i)
        if (!same_desc(e.outputs[i], output_descs[i])) return false;
      return true;
    });
    if (c != nullptr)
      return bind_tensors(op_type, c->op, c->spare, c->inputs, c->host_inputs, inputs, c->outputs,
                          outputs);
  }
  PreparedCall p = prepare_call(op_type, input_descs, inputs, output_descs, attrs);
  if (!cache_it) return bind_call(p, inputs, outputs);
  // The entry owns its op through the spare slot, which then lives as long as any call.
  auto spare = std::make_shared<TensorSpare>(std::move(p.op));
  std::shared_ptr<const PreparedOp> op(spare, spare->op.get());
  cache.add({op_type, p.inputs, p.outputs, p.host_inputs, attrs, op, spare.get()});
  return bind_tensors(op_type, std::move(op), spare.get(), p.inputs, p.host_inputs, inputs,
                      p.outputs, outputs);
}

void enqueue_call(Stream &stream, BoundCall call) {
  const DumpSettings &settings = Runtime::get().dump();
  OpDumper dump =
      settings.any_active() ? single_op_dumper(settings.active(), stream.device().id()) : nullptr;
  stream.enqueue(std::make_unique<OpTask>(std::move(call), std::move(dump)));
}

}  // namespace openacl::ops
