#include "ops/dnnl_op.h"

#include <omp.h>

#include <array>
#include <cstring>

namespace openacl::ops {
namespace {

// Waking an OpenMP team costs tens of microseconds of futex traffic on a loaded machine:
// primitives whose arguments total less than this run on one thread.
constexpr size_t kParallelBytes = size_t{1} << 20;
constexpr size_t kAlign = 64;

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Sets the calling thread's OpenMP team size for a scope: oneDNN reads it when it creates a
// primitive and when a reorder runs.
class OmpTeam {
 public:
  explicit OmpTeam(unsigned n) : old_(omp_get_max_threads()) { omp_set_num_threads(static_cast<int>(n)); }
  ~OmpTeam() { omp_set_num_threads(old_); }
  OmpTeam(const OmpTeam &) = delete;
  OmpTeam &operator=(const OmpTeam &) = delete;

 private:
  int old_;
};

// Per worker thread: room for the scratchpad, reordered and converted tensors of a run.
std::byte *arena(size_t bytes) {
  thread_local std::vector<std::byte> buf;
  if (buf.size() < bytes + kAlign) buf.resize(bytes + kAlign);
  auto p = reinterpret_cast<uintptr_t>(buf.data());
  return buf.data() + (align_up(p) - p);
}

}  // namespace

dnnl::engine &dnnl_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::data_type dnnl_f32() { return dnnl::memory::data_type::f32; }

dnnl::primitive_attr dnnl_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// One team size's primitive, with the layouts it chose and the arena slices of a run.
struct DnnlOp::Variant {
  dnnl::primitive prim;
  std::vector<dnnl::memory::desc> layout;  // per arg: what the primitive takes
  std::vector<dnnl::reorder> reorders;     // per arg: user <-> layout; empty when equal
  std::vector<dnnl::memory> packed;        // per arg: a constant already in `layout`
  std::vector<size_t> layout_at, f32_at;   // per arg: arena offsets (SIZE_MAX = unused)
  dnnl::memory::desc scratchpad;
  size_t scratch_at = 0, arena_bytes = 0;
};

DnnlOp::DnnlOp(DnnlPdMaker make_pd, std::vector<DnnlArg> args, unsigned threads)
    : make_pd_(std::move(make_pd)), args_(std::move(args)), constants_(args_.size(), nullptr) {
  if (args_.size() > 6) fail(Errc::internal, "a oneDNN op with more than 6 arguments");
  size_t bytes = 0;
  for (const DnnlArg &a : args_) bytes += a.user.get_size();
  parallel_ = bytes >= kParallelBytes;
  const unsigned t = team(threads);
  variants_.resize(t + 1);
  variants_[t] = make_variant(t);
}

DnnlOp::~DnnlOp() = default;

std::unique_ptr<PreparedOp> dnnl_op(const OpCall &call, std::vector<DnnlArg> args, DnnlPdMaker make_pd) {
  try {
    return std::make_unique<DnnlOp>(std::move(make_pd), std::move(args), call.threads());
  } catch (const dnnl::error &e) {
    fail(Errc::op_attr_not_match, call.type() + ": oneDNN rejects this configuration (" + e.what() + ")");
  }
}

unsigned DnnlOp::team(unsigned cores) const { return parallel_ ? std::max(1u, cores) : 1u; }

std::unique_ptr<DnnlOp::Variant> DnnlOp::make_variant(unsigned team) const {
  OmpTeam omp(team);
  auto v = std::make_unique<Variant>();
  const dnnl::primitive_desc pd = make_pd_();
  v->prim = dnnl::primitive(pd.get());
  const size_t n = args_.size();
  v->packed.resize(n);
  v->layout_at.assign(n, SIZE_MAX);
  v->f32_at.assign(n, SIZE_MAX);
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    const DnnlArg &a = args_[i];
    dnnl::memory::desc want = pd.query_md(dnnl::query::exec_arg_md, a.arg);
    if (want.is_zero()) want = a.user;
    v->layout.push_back(want);
    if (want == a.user) {
      v->reorders.emplace_back();
    } else {
      v->reorders.emplace_back(a.tensor >= 0 ? dnnl::reorder::primitive_desc(dnnl_engine(), a.user, dnnl_engine(), want)
                                             : dnnl::reorder::primitive_desc(dnnl_engine(), want, dnnl_engine(), a.user));
      v->layout_at[i] = at;
      at += align_up(want.get_size());
    }
    if (a.dtype != DType::f32) {
      v->f32_at[i] = at;
      at += align_up(a.user.get_size());
    }
  }
  v->scratchpad = pd.scratchpad_desc();
  v->scratch_at = at;
  v->arena_bytes = at + align_up(v->scratchpad.get_size());
  pack(*v);
  return v;
}

void DnnlOp::pack(Variant &v) const {
  dnnl::stream stream(dnnl_engine());
  for (size_t i = 0; i < args_.size(); ++i) {
    const DnnlArg &a = args_[i];
    if (a.tensor < 0 || !constants_[a.tensor] || v.packed[i] || (!v.reorders[i] && a.dtype == DType::f32)) continue;
    const size_t count = a.user.get_size() / sizeof(float);
    std::vector<float> f32(count);
    to_f32(a.dtype, constants_[a.tensor], f32.data(), count);
    dnnl::memory packed(v.layout[i], dnnl_engine());
    if (v.reorders[i]) {
      dnnl::memory user(a.user, dnnl_engine(), f32.data());
      v.reorders[i].execute(stream, user, packed);
      stream.wait();
    } else {
      std::memcpy(packed.get_data_handle(), f32.data(), count * sizeof(float));
    }
    v.packed[i] = packed;
  }
}

void DnnlOp::bind_constant(size_t input, const void *data) {
  for (size_t i = 0; i < args_.size(); ++i)
    if (args_[i].tensor == static_cast<int>(input)) constants_[input] = data;
  std::lock_guard lock(mu_);
  for (auto &v : variants_)
    if (v) pack(*v);
}

const DnnlOp::Variant &DnnlOp::variant(unsigned team) const {
  std::lock_guard lock(mu_);
  if (variants_.size() <= team) variants_.resize(team + 1);
  if (!variants_[team]) variants_[team] = make_variant(team);
  return *variants_[team];
}

void DnnlOp::run(const std::vector<Tensor> &in, const std::vector<Tensor> &out, AiCores &cores) const {
  try {
    const unsigned t = team(cores.count());
    OmpTeam omp(t);
    execute(variant(t), in, out);
  } catch (const dnnl::error &e) {
    fail(Errc::task_failure, std::string("oneDNN failed: ") + e.what());
  }
}

void DnnlOp::execute(const Variant &v, const std::vector<Tensor> &in, const std::vector<Tensor> &out) const {
  thread_local dnnl::stream stream(dnnl_engine());
  std::byte *base = arena(v.arena_bytes);
  // Memory objects stay alive until the primitive ran: the exec args borrow their handles.
  std::vector<dnnl::memory> mems;
  mems.reserve(2 * args_.size() + 1);
  std::array<dnnl_exec_arg_t, 8> exec{};
  size_t nexec = 0;
  struct Pending { size_t arg; size_t layout_mem, user_mem; };
  std::array<Pending, 4> pending{};
  size_t npending = 0;
  for (size_t i = 0; i < args_.size(); ++i) {
    const DnnlArg &a = args_[i];
    if (v.packed[i]) {
      exec[nexec++] = {a.arg, v.packed[i].get()};
      continue;
    }
    const Tensor &t = a.tensor >= 0 ? in[a.tensor] : out[-1 - a.tensor];
    void *ptr = t.data;
    if (a.dtype != DType::f32) {
      ptr = base + v.f32_at[i];
      if (a.tensor >= 0) to_f32(a.dtype, t.data, static_cast<float *>(ptr), a.user.get_size() / sizeof(float));
    }
    mems.emplace_back(a.user, dnnl_engine(), ptr);
    if (!v.reorders[i]) {
      exec[nexec++] = {a.arg, mems.back().get()};
      continue;
    }
    mems.emplace_back(v.layout[i], dnnl_engine(), base + v.layout_at[i]);
    if (a.tensor >= 0) v.reorders[i].execute(stream, mems[mems.size() - 2], mems.back());
    else pending[npending++] = {i, mems.size() - 1, mems.size() - 2};
    exec[nexec++] = {a.arg, mems.back().get()};
  }
  if (v.scratchpad.get_size() != 0) {
    mems.emplace_back(v.scratchpad, dnnl_engine(), base + v.scratch_at);
    exec[nexec++] = {DNNL_ARG_SCRATCHPAD, mems.back().get()};
  }
  dnnl::error::wrap_c_api(dnnl_primitive_execute(v.prim.get(), stream.get(), static_cast<int>(nexec), exec.data()),
                          "could not execute a primitive");
  for (size_t k = 0; k < npending; ++k)
    v.reorders[pending[k].arg].execute(stream, mems[pending[k].layout_mem], mems[pending[k].user_mem]);
  stream.wait();
  for (size_t i = 0; i < args_.size(); ++i) {
    const DnnlArg &a = args_[i];
    if (a.tensor < 0 && a.dtype != DType::f32)
      from_f32(a.dtype, reinterpret_cast<const float *>(base + v.f32_at[i]), out[-1 - a.tensor].data, a.user.get_size() / sizeof(float));
  }
}

}  // namespace openacl::ops
