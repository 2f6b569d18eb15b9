#include "ops/dnnl_op.h"

#include <omp.h>

#include <array>
#include <atomic>
#include <cstring>
#include <unordered_map>

#include "backend/backend.h"

namespace openacl::ops {
namespace {

// Parts on the AI cores pay off from small sizes on, since every op of a model splits its
// tensors the same way and each core keeps working on its own half. An OpenMP team woken per
// primitive costs tens of microseconds of futex traffic (libgomp stops spinning when it
// manages more threads than there are CPUs, which the AI-core workers always make true), so
// an op that cannot split gets one only when it is large (a big matmul).
constexpr size_t kSplitBytes = size_t{64} << 10;
constexpr size_t kTeamBytes = size_t{8} << 20;
constexpr size_t kAlign = 64;

size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Sets the calling thread's OpenMP team size for a scope: oneDNN reads it when it creates a
// primitive and when a reorder runs.
class OmpTeam {
 public:
  explicit OmpTeam(unsigned n) : old_(omp_get_max_threads()) {
    omp_set_num_threads(static_cast<int>(n));
  }
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
  // isa() caps oneDNN (OPENACL_MAX_ISA) before its first primitive.
  static dnnl::engine engine = (isa(), dnnl::engine(dnnl::engine::kind::cpu, 0));
  return engine;
}

dnnl::memory::data_type dnnl_f32() { return dnnl::memory::data_type::f32; }

dnnl::primitive_attr dnnl_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

// One part's primitive, with the layouts it chose and the arena slices of a run.
struct DnnlOp::Part {
  std::vector<DnnlArg> args;
  std::vector<size_t> offsets;
  dnnl::primitive prim;
  std::vector<dnnl::memory::desc> layout;  // per arg: what the primitive takes
  std::vector<dnnl::reorder> reorders;     // per arg: user <-> layout; empty when equal
  std::vector<dnnl::memory> packed;        // per arg: a constant already in `layout`
  std::vector<size_t> layout_at, f32_at;   // per arg: arena offsets (SIZE_MAX = unused)
  dnnl::memory::desc scratchpad;
  size_t scratch_at = 0, arena_bytes = 0;
  uint64_t id = 0;  // unique for the process's lifetime: the key of its memory objects
};

namespace {

// A part's oneDNN memory objects on one thread, made at its first run there and pointed at
// the run's buffers after that. Creating them at every run (an aligned allocation and a free
// each) cost about as much as the primitives themselves in PP-OCR cls.
struct PartMemories {
  std::vector<dnnl::memory> user, layout;  // per arg
  dnnl::memory scratch;
};

PartMemories &memories_of(uint64_t part, size_t args) {
  // Entries of destroyed ops are never looked up again; the whole cache is dropped when it
  // grows past any model's part count.
  constexpr size_t kMaxParts = 16384;
  thread_local std::unordered_map<uint64_t, PartMemories> cache;
  if (auto it = cache.find(part); it != cache.end()) return it->second;
  if (cache.size() >= kMaxParts) cache.clear();
  PartMemories &m = cache[part];
  m.user.resize(args);
  m.layout.resize(args);
  return m;
}

// m, made for md on first use, pointing at ptr.
dnnl::memory &point(dnnl::memory &m, const dnnl::memory::desc &md, void *ptr) {
  if (!m) m = dnnl::memory(md, dnnl_engine(), ptr);
  else if (m.get_data_handle() != ptr) m.set_data_handle(ptr);
  return m;
}

std::atomic<uint64_t> next_part_id{1};

}  // namespace

// The op prepared for one core count: its parts, or one part run by an OpenMP team.
struct DnnlOp::Variant {
  std::vector<Part> parts;
  unsigned team = 1;
};

DnnlOp::DnnlOp(DnnlSplitter split, unsigned threads) : split_(std::move(split)) {
  const std::vector<DnnlPart> whole = split_(1);
  size_t bytes = 0, inputs = 0;
  for (const DnnlArg &a : whole.at(0).args) {
    bytes += a.user.get_size();
    inputs = std::max(inputs, static_cast<size_t>(std::max(0, a.tensor + 1)));
  }
  if (whole[0].args.size() > 6) fail(Errc::internal, "a oneDNN op with more than 6 arguments");
  constants_.assign(inputs, nullptr);
  bytes_ = bytes;
  variant(threads);
}

DnnlOp::~DnnlOp() = default;

std::unique_ptr<PreparedOp> dnnl_op(const OpCall &call, DnnlSplitter split) {
  try {
    return std::make_unique<DnnlOp>(std::move(split), call.threads());
  } catch (const dnnl::error &e) {
    fail(Errc::op_attr_not_match,
         call.type() + ": oneDNN rejects this configuration (" + e.what() + ")");
  }
}

std::unique_ptr<PreparedOp> dnnl_op(const OpCall &call, std::vector<DnnlArg> args,
                                    DnnlPdMaker make_pd) {
  std::vector<size_t> offsets(args.size(), 0);
  return dnnl_op(call, [args = std::move(args), offsets, make_pd = std::move(make_pd)](unsigned) {
    return std::vector<DnnlPart>{{make_pd, args, offsets}};
  });
}

std::unique_ptr<DnnlOp::Variant> DnnlOp::make_variant(unsigned cores) const {
  auto v = std::make_unique<Variant>();
  const std::vector<DnnlPart> parts = split_(bytes_ >= kSplitBytes ? cores : 1);
  v->team = parts.size() == 1 && bytes_ >= kTeamBytes ? cores : 1;
  OmpTeam omp(v->team);
  for (const DnnlPart &dp : parts) {
    Part &p = v->parts.emplace_back();
    p.id = next_part_id.fetch_add(1, std::memory_order_relaxed);
    p.args = dp.args;
    p.offsets = dp.offsets;
    const dnnl::primitive_desc pd = dp.make_pd();
    p.prim = dnnl::primitive(pd.get());
    const size_t n = p.args.size();
    p.packed.resize(n);
    p.layout_at.assign(n, SIZE_MAX);
    p.f32_at.assign(n, SIZE_MAX);
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
      const DnnlArg &a = p.args[i];
      dnnl::memory::desc want = pd.query_md(dnnl::query::exec_arg_md, a.arg);
      if (want.is_zero()) want = a.user;
      p.layout.push_back(want);
      if (want == a.user) {
        p.reorders.emplace_back();
      } else {
        p.reorders.emplace_back(
            a.tensor >= 0
                ? dnnl::reorder::primitive_desc(dnnl_engine(), a.user, dnnl_engine(), want)
                : dnnl::reorder::primitive_desc(dnnl_engine(), want, dnnl_engine(), a.user));
        p.layout_at[i] = at;
        at += align_up(want.get_size());
      }
      if (a.dtype != DType::f32) {
        p.f32_at[i] = at;
        at += align_up(a.user.get_size());
      }
    }
    p.scratchpad = pd.scratchpad_desc();
    p.scratch_at = at;
    p.arena_bytes = at + align_up(p.scratchpad.get_size());
  }
  pack(*v);
  return v;
}

void DnnlOp::pack(Variant &v) const {
  // One thread: a team woken per weight spins at barriers that, on a busy host, cost far more
  // than the copies (PP-OCR cls on 2 loaded vCPUs: 0.85 s of spinning at load).
  OmpTeam one(1);
  dnnl::stream stream(dnnl_engine());
  for (size_t k = 0; k < v.parts.size(); ++k) {
    Part &p = v.parts[k];
    for (size_t i = 0; i < p.args.size(); ++i) {
      const DnnlArg &a = p.args[i];
      if (a.tensor < 0 || !constants_[a.tensor] || p.packed[i] ||
          (!p.reorders[i] && a.dtype == DType::f32))
        continue;
      // Parts of a split op usually take the same weights in the same layout: one copy.
      for (size_t e = 0; e < k && !p.packed[i]; ++e) {
        const Part &q = v.parts[e];
        if (q.args[i].tensor == a.tensor && q.offsets[i] == p.offsets[i] &&
            q.layout[i] == p.layout[i] && q.args[i].user == a.user)
          p.packed[i] = q.packed[i];
      }
      if (!p.packed[i])
        p.packed[i] = packed_copy(a, p.layout[i], p.reorders[i], p.offsets[i], stream);
    }
  }
}

dnnl::memory DnnlOp::packed_copy(const DnnlArg &a, const dnnl::memory::desc &layout,
                                 const dnnl::reorder &reorder, size_t offset,
                                 dnnl::stream &stream) const {
  // f32 constants are read in place: a strided slice (a kernel tap, a repeated bias) spans
  // fewer bytes than its desc's size. Other dtypes are never sliced (splits are f32 only).
  const void *data = static_cast<const std::byte *>(constants_[a.tensor]) + offset;
  std::vector<float> f32;
  if (a.dtype != DType::f32) {
    f32.resize(a.user.get_size() / sizeof(float));
    to_f32(a.dtype, data, f32.data(), f32.size());
    data = f32.data();
  }
  dnnl::memory packed(layout, dnnl_engine());
  if (reorder) {
    dnnl::memory user(a.user, dnnl_engine(), const_cast<void *>(data));
    reorder.execute(stream, user, packed);
    stream.wait();
  } else {  // only a converted copy gets here (f32 without a reorder needs no packing)
    std::memcpy(packed.get_data_handle(), data, f32.size() * sizeof(float));
  }
  return packed;
}

void DnnlOp::bind_constant(size_t input, const void *data, size_t n,
                           backend::DeviceBackend &device) {
  if (input >= constants_.size()) return;
  // The variants made so far pack the weight now, from a host view; one made later (another
  // core count) packs it from `data` on a device worker, as a kernel reads its inputs.
  const backend::HostView view(device, data, n, backend::DeviceBackend::Access::read);
  std::lock_guard lock(mu_);
  constants_[input] = view.data();
  for (auto &v : variants_)
    if (v) pack(*v);
  constants_[input] = data;
}

const DnnlOp::Variant &DnnlOp::variant(unsigned cores) const {
  const unsigned key = bytes_ >= kSplitBytes ? std::max(1u, cores) : 1u;
  std::lock_guard lock(mu_);
  if (variants_.size() <= key) variants_.resize(key + 1);
  if (!variants_[key]) variants_[key] = make_variant(key);
  return *variants_[key];
}

void DnnlOp::run(const std::vector<Tensor> &in, const std::vector<Tensor> &out,
                 backend::AiCores &cores) const {
  try {
    const Variant &v = variant(cores.count());
    OmpTeam omp(v.team);
    if (v.parts.size() == 1) return execute(v.parts[0], in, out);
    cores.parallel_for(v.parts.size(), [&](size_t i) {
      OmpTeam one(1);  // reorders read the running worker's own setting
      execute(v.parts[i], in, out);
    });
  } catch (const dnnl::error &e) {
    fail(Errc::task_failure, std::string("oneDNN failed: ") + e.what());
  }
}

void DnnlOp::execute(const Part &p, const std::vector<Tensor> &in, const std::vector<Tensor> &out) {
  thread_local dnnl::stream stream(dnnl_engine());
  std::byte *base = arena(p.arena_bytes);
  PartMemories &mem = memories_of(p.id, p.args.size());
  std::array<dnnl_exec_arg_t, 8> exec{};
  size_t nexec = 0;
  std::array<size_t, 8> pending{};  // outputs reordered into the user's layout after the run
  size_t npending = 0;
  for (size_t i = 0; i < p.args.size(); ++i) {
    const DnnlArg &a = p.args[i];
    if (p.packed[i]) {
      exec[nexec++] = {a.arg, p.packed[i].get()};
      continue;
    }
    const Tensor &t = a.tensor >= 0 ? in[a.tensor] : out[-1 - a.tensor];
    void *ptr = static_cast<std::byte *>(t.data) + p.offsets[i];
    if (a.dtype != DType::f32) {
      ptr = base + p.f32_at[i];
      if (a.tensor >= 0)
        to_f32(a.dtype, t.data, static_cast<float *>(ptr), a.user.get_size() / sizeof(float));
    }
    dnnl::memory &user = point(mem.user[i], a.user, ptr);
    if (!p.reorders[i]) {
      exec[nexec++] = {a.arg, user.get()};
      continue;
    }
    dnnl::memory &laid = point(mem.layout[i], p.layout[i], base + p.layout_at[i]);
    if (a.tensor >= 0) p.reorders[i].execute(stream, user, laid);
    else pending[npending++] = i;
    exec[nexec++] = {a.arg, laid.get()};
  }
  if (p.scratchpad.get_size() != 0)
    exec[nexec++] = {DNNL_ARG_SCRATCHPAD,
                     point(mem.scratch, p.scratchpad, base + p.scratch_at).get()};
  dnnl::error::wrap_c_api(
      dnnl_primitive_execute(p.prim.get(), stream.get(), static_cast<int>(nexec), exec.data()),
      "could not execute a primitive");
  for (size_t k = 0; k < npending; ++k)
    p.reorders[pending[k]].execute(stream, mem.layout[pending[k]], mem.user[pending[k]]);
  stream.wait();
  for (size_t i = 0; i < p.args.size(); ++i) {
    const DnnlArg &a = p.args[i];
    if (a.tensor < 0 && a.dtype != DType::f32)
      from_f32(a.dtype, reinterpret_cast<const float *>(base + p.f32_at[i]),
               out[-1 - a.tensor].data, a.user.get_size() / sizeof(float));
  }
}

}  // namespace openacl::ops
