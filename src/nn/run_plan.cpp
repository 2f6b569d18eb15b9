// Runs a plan's steps on a device worker: library ops on their bound tensors, strided copies,
// int4 unpacking, index-driven copies and nn's own kernels. The steps that are no library op run
// on the host over host views of the device bytes they reach (DeviceBackend::begin_host_access),
// so they hold on a backend whose memory the host cannot address as on sim, where a view is the
// memory itself.
#include <algorithm>
#include <cstring>
#include <deque>
#include <utility>

#include "backend/backend.h"
#include "core/runtime.h"
#include "nn/objects.h"
#include "nn/plan.h"
#include "nn/strided.h"
#include "ops/non_finite.h"

namespace openacl::nn {

namespace {

using backend::HostView;
using Access = backend::DeviceBackend::Access;

// The first and last element a strided view reaches, as offsets in elements from the element
// at index 0 (strides may be 0 or negative); {0, -1} when the view is empty.
std::pair<int64_t, int64_t> reach(const std::vector<int64_t> &dims,
                                  const std::vector<int64_t> &strides) {
  int64_t lo = 0, hi = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 0) return {0, -1};
    const int64_t span = (dims[d] - 1) * strides[d];
    (span < 0 ? lo : hi) += span;
  }
  return {lo, hi};
}

// The bytes that a strided view of es-byte elements, its index 0 at p, reaches: the first one and
// their count.
std::pair<const uint8_t *, size_t> bytes_reached(const uint8_t *p, const std::vector<int64_t> &dims,
                                                 const std::vector<int64_t> &strides, int64_t es) {
  const auto [lo, hi] = reach(dims, strides);
  return {p + lo * es, static_cast<size_t>((hi - lo + 1) * es)};
}

HostView view_of(backend::DeviceBackend &device, const uint8_t *p, const std::vector<int64_t> &dims,
                 const std::vector<int64_t> &strides, int64_t es, Access access) {
  const auto [first, n] = bytes_reached(p, dims, strides, es);
  return HostView(device, first, n, access);
}

// What a thread's runs reuse: the op's tensors (assigning a descriptor over the previous one
// reuses its dims' storage, so a run allocates nothing once the thread has seen as many dims),
// which step's descriptors they hold, and the kernels' views. One thread_local, looked up out of
// line: each access costs a __tls_get_addr call, and GCC repeats it after every call it makes.
struct RunScratch {
  std::vector<ops::Tensor> in, out;
  uint64_t bound_plan = 0;
  const Step *bound_step = nullptr;
  std::deque<HostView> views;
  std::vector<StridedTensor> kin, kout;
};

[[gnu::noinline]] RunScratch &run_scratch() {
  thread_local RunScratch rs;
  return rs;
}

}  // namespace

void run_plan(const Plan &plan, std::span<void *const> addresses, void *workspace,
              backend::DeviceBackend &device, backend::AiCores &cores, bool check_overflow) {
  auto base = [&](const Value &v) -> uint8_t * {
    const auto es = static_cast<int64_t>(element_size(v.desc.dtype));
    uint8_t *home = v.home == Home::slot        ? static_cast<uint8_t *>(addresses[v.index])
                    : v.home == Home::workspace ? static_cast<uint8_t *>(workspace)
                                                : const_cast<uint8_t *>(plan.constant_at[v.index]);
    return home + v.offset * es;
  };
  RunScratch &rs = run_scratch();
  // Binds the step's tensors; their descriptors only when the thread's vectors do not already
  // hold this step's (ggml runs the same plans over and over).
  auto bind = [&](const Step &s) {
    if (plan.serial == 0 || rs.bound_plan != plan.serial || rs.bound_step != &s) {
      rs.bound_step = nullptr;
      for (auto [values, tensors] : {std::pair{&s.in, &rs.in}, std::pair{&s.out, &rs.out}}) {
        tensors->resize(values->size());
        for (size_t i = 0; i < values->size(); ++i) {
          const Value &v = plan.values[(*values)[i]];
          (*tensors)[i].desc = v.desc;
          (*tensors)[i].bytes = v.desc.byte_size();
        }
      }
      rs.bound_plan = plan.serial;
      rs.bound_step = &s;
    }
    for (size_t i = 0; i < s.in.size(); ++i) rs.in[i].data = base(plan.values[s.in[i]]);
    for (size_t i = 0; i < s.out.size(); ++i) rs.out[i].data = base(plan.values[s.out[i]]);
  };
  for (const Step &s : plan.steps) {
    if (s.kind == Step::Kind::kernel) {
      // nn's own kernels are host code too: each operand through a view of the bytes it reaches.
      auto &views = rs.views;
      auto &kin = rs.kin, &kout = rs.kout;
      struct Release {
        std::deque<HostView> &views;
        ~Release() { views.clear(); }
      } release{views};
      kin.clear();
      kout.clear();
      auto take = [&](const std::vector<size_t> &values, std::vector<StridedTensor> &tensors,
                      Access access) {
        for (size_t n : values) {
          const Value &v = plan.values[n];
          const auto es = static_cast<int64_t>(element_size(v.desc.dtype));
          const auto [first, bytes] = bytes_reached(base(v), v.desc.dims, v.strides, es);
          const HostView &view = views.emplace_back(device, first, bytes, access);
          tensors.push_back({&v, view.at<uint8_t>(base(v))});
        }
      };
      take(s.in, kin, Access::read);
      take(s.out, kout, Access::write);
      s.kernel->run(kin, kout, cores);
      continue;
    }
    if (s.kind == Step::Kind::copy) {
      const Value &src = plan.values[s.in[0]], &dst = plan.values[s.out[0]];
      const auto es = static_cast<int64_t>(element_size(dst.desc.dtype));
      const auto &dims = dst.desc.dims;
      const HostView from = view_of(device, base(src), dims, src.strides, es, Access::read);
      const HostView to = view_of(device, base(dst), dims, dst.strides, es, Access::write);
      strided_copy(from.at<const uint8_t>(base(src)), src.strides, to.at<uint8_t>(base(dst)),
                   dst.strides, dims, static_cast<size_t>(es));
      continue;
    }
    if (s.kind == Step::Kind::unpack_int4) {
      // Element e of the view is nibble e % 2 of byte e / 2, counted from the slot's address.
      const Value &src = plan.values[s.in[0]], &dst_value = plan.values[s.out[0]];
      const auto &dims = src.desc.dims;
      const int64_t n = src.desc.element_count();
      const auto [lo, hi] = reach(dims, src.strides);
      if (n == 0) continue;
      const int64_t first = (src.offset + lo) / 2;
      const auto *slot = static_cast<const uint8_t *>(addresses[src.index]);
      const HostView from(device, slot + first,
                          static_cast<size_t>((src.offset + hi) / 2 - first + 1), Access::read);
      const HostView to(device, base(dst_value), static_cast<size_t>(n), Access::write);
      const auto *bytes = from.at<const uint8_t>(slot);
      auto *dst = static_cast<int8_t *>(to.data());
      std::vector<int64_t> at(dims.size(), 0);
      for (int64_t i = 0; i < n; ++i) {
        int64_t e = src.offset;
        for (size_t d = 0; d < dims.size(); ++d) e += at[d] * src.strides[d];
        const int nib = (bytes[e / 2] >> (4 * (e % 2))) & 0xf;
        dst[i] = static_cast<int8_t>(nib >= 8 ? nib - 16 : nib);
        for (size_t d = dims.size(); d-- > 0;)
          if (++at[d] < dims[d]) break;
          else at[d] = 0;
      }
      continue;
    }
    if (s.kind == Step::Kind::index_copy) {
      const Value &src = plan.values[s.in[0]], &idx = plan.values[s.in[1]],
                  &dst = plan.values[s.out[0]];
      const auto es = static_cast<int64_t>(element_size(dst.desc.dtype));
      auto slice = src.desc.dims;
      slice[s.axis] = 1;
      const int64_t size = dst.desc.dims[s.axis], n = idx.desc.element_count();
      const HostView indices(device, base(idx), idx.desc.byte_size(), Access::read);
      const HostView from =
          view_of(device, base(src), src.desc.dims, src.strides, es, Access::read);
      const HostView to = view_of(device, base(dst), dst.desc.dims, dst.strides, es, Access::write);
      const auto *ip = static_cast<const uint8_t *>(indices.data());
      const uint8_t *src_base = from.at<const uint8_t>(base(src));
      uint8_t *dst_base = to.at<uint8_t>(base(dst));
      for (int64_t i = 0; i < n; ++i) {
        int64_t k;
        if (idx.desc.dtype == ops::DType::i64) {
          std::memcpy(&k, ip + i * 8, 8);
        } else {
          int32_t k32;
          std::memcpy(&k32, ip + i * 4, 4);
          k = k32;
        }
        if (k < -size || k >= size)
          fail(Errc::task_failure,
               plan.name + ": index[" + std::to_string(i) + "] = " + std::to_string(k) +
                   " is out of range for a dim of size " + std::to_string(size));
        if (k < 0) k += size;
        strided_copy(src_base + i * src.strides[s.axis] * es, src.strides,
                     dst_base + k * dst.strides[s.axis] * es, dst.strides, slice,
                     static_cast<size_t>(es));
      }
      continue;
    }
    bind(s);
    s.op->run(rs.in, rs.out, cores);
    if (check_overflow && std::any_of(rs.out.begin(), rs.out.end(), ops::has_non_finite))
      Runtime::get().note_overflow();
  }
}

}  // namespace openacl::nn
