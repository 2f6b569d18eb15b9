// Convolution, transposed convolution, matmul and pooling on oneDNN; global pooling by hand.
#include <algorithm>
#include <cmath>

#include "ops/dnnl_op.h"
#include "ops/panel_matmul.h"
#include "ops/skinny_matmul.h"
#include "ops/winograd.h"

namespace openacl::ops {
namespace {

using dims_t = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;
using dnnl::memory;

const std::initializer_list<DType> kFloats = {DType::f32, DType::f16, DType::bf16};

memory::desc plain(const std::vector<int64_t> &dims) {
  const auto strides = contiguous_strides(dims);
  return memory::desc(dims_t(dims.begin(), dims.end()), dnnl_f32(),
                      dims_t(strides.begin(), strides.end()));
}

// An NCHW conv input or output as stored: dense, or NHWC (TensorDesc::channels_last).
memory::desc activation(const std::vector<int64_t> &dims, bool channels_last) {
  if (!channels_last) return plain(dims);
  return memory::desc(dims_t(dims.begin(), dims.end()), dnnl_f32(), tag::nhwc);
}

// Images [n0, n0 + nn) and rows [r0, r1) of an NCHW tensor with dims `full` (dense, or
// channels-last): the slice's layout and its byte offset in the tensor.
std::pair<memory::desc, size_t> nchw_slice(const std::vector<int64_t> &full, bool channels_last,
                                           int64_t n0, int64_t nn, int64_t r0, int64_t r1) {
  const int64_t c = full[1], h = full[2], w = full[3];
  const dims_t d{nn, c, r1 - r0, w};
  if (channels_last) {
    const auto at = static_cast<size_t>((n0 * h + r0) * w * c) * sizeof(float);
    if (nn == 1 || r1 - r0 == h) return {memory::desc(d, dnnl_f32(), tag::nhwc), at};
    return {memory::desc(d, dnnl_f32(), dims_t{h * w * c, 1, w * c, c}), at};
  }
  const auto at = static_cast<size_t>(n0 * c * h * w + r0 * w) * sizeof(float);
  return {memory::desc(d, dnnl_f32(), dims_t{c * h * w, h * w, w, 1}), at};
}

bool output_channels_last(const OpCall &call) {
  const TensorDesc *y = call.given(0);
  return y != nullptr && y->channels_last;
}

memory::desc any_like(const memory::desc &md) {
  return memory::desc(md.dims(), dnnl_f32(), tag::any);
}

void require_nchw(const OpCall &call) {
  const std::string f = call.attr_str("data_format", std::string("NCHW"));
  if (f != "NCHW") call.bad_attr("data_format", "is '" + f + "'; only NCHW is supported");
}

// The H, W entries of a 4-entry attr (strides, dilations, ksize) in NCHW order, or in NHWC
// order when `nhwc`, or of a 2-entry one.
std::pair<int64_t, int64_t> hw_of(const OpCall &call, const char *name,
                                  std::optional<std::vector<int64_t>> def, bool nhwc = false) {
  auto v = call.attr_ints(name, std::move(def));
  if (v.size() == 4) return nhwc ? std::pair{v[1], v[2]} : std::pair{v[2], v[3]};
  if (v.size() == 2) return {v[0], v[1]};
  call.bad_attr(name, "must have 4 entries (N, C, H, W), got " + std::to_string(v.size()));
}

struct Pads {
  int64_t t = 0, b = 0, l = 0, r = 0;
};

// SAME padding as TF / ONNX SAME_UPPER (extra at the end) or SAME_LOWER.
void same_pad(int64_t in, int64_t k, int64_t s, int64_t d, bool lower, int64_t &p0, int64_t &p1) {
  const int64_t out = (in + s - 1) / s;
  const int64_t total = std::max<int64_t>(0, (out - 1) * s + (k - 1) * d + 1 - in);
  p0 = lower ? total - total / 2 : total / 2;
  p1 = total - p0;
}

// ---- Conv2D ----

// Whether a Conv2D's x and y are NHWC: as CANN infers it, from x's format when that is NCHW or
// NHWC, else from data_format (default NCHW). A data_format that contradicts x's format is an
// error rather than a silent choice.
bool conv_nhwc(const OpCall &call) {
  const Format f = call.in(0).format;
  const std::string df =
      call.attr_str("data_format", std::string(f == Format::nhwc ? "NHWC" : "NCHW"));
  if (df != "NCHW" && df != "NHWC")
    call.bad_attr("data_format", "is '" + df + "'; expected NCHW or NHWC");
  if ((f == Format::nchw && df != "NCHW") || (f == Format::nhwc && df != "NHWC"))
    call.bad_attr("data_format",
                  "is '" + df + "' but x's format is " + (f == Format::nchw ? "NCHW" : "NHWC"));
  return df == "NHWC";
}

// A filter's layout as its format gives it: OIHW (NCHW, ND), OHWI (NHWC) or HWIO (HWCN).
struct FilterLayout {
  int64_t oc, ic, kh, kw;
  // Element strides of O, I, H, W in the stored filter.
  int64_t so, si, sh, sw;
};

FilterLayout filter_layout(const OpCall &call) {
  const auto &d = call.in(1).dims;
  switch (call.in(1).format) {
    case Format::nhwc:
      return {d[0], d[3], d[1], d[2], d[1] * d[2] * d[3], 1, d[2] * d[3], d[3]};
    case Format::hwcn:
      return {d[3], d[2], d[0], d[1], 1, d[3], d[1] * d[2] * d[3], d[2] * d[3]};
    case Format::nchw:
    case Format::nd:
    case Format::undefined:
      return {d[0], d[1], d[2], d[3], d[1] * d[2] * d[3], d[2] * d[3], d[3], 1};
  }
  call.bad_input(1, "(filter) has format " + std::to_string(static_cast<int>(call.in(1).format)) +
                        "; expected NCHW, NHWC, HWCN or ND");
}

std::unique_ptr<PreparedOp> build_conv(OpCall &call) {
  call.inputs_between(2, 4, "x, filter, [bias], [offset_w]");
  call.dtype_in(0, kFloats);
  call.same_dtype(0, 1);
  call.rank_is(0, 4);
  call.rank_is(1, 4);
  const bool nhwc = conv_nhwc(call);
  // x as NCHW dims; an NHWC x is the channels-last storage of those.
  TensorDesc x = call.in(0);
  if (nhwc) x.dims = {x.dims[0], x.dims[3], x.dims[1], x.dims[2]}, x.channels_last = true;
  const FilterLayout f = filter_layout(call);
  const auto [sh, sw] = hw_of(call, "strides", {}, nhwc);
  const auto [dh, dw] = hw_of(call, "dilations", std::vector<int64_t>{1, 1, 1, 1}, nhwc);
  const int64_t g = call.attr_int("groups", 1);
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], wd = x.dims[3];
  const int64_t oc = f.oc, kh = f.kh, kw = f.kw;
  if (sh <= 0 || sw <= 0) call.bad_attr("strides", "must be positive");
  if (dh <= 0 || dw <= 0) call.bad_attr("dilations", "must be positive");
  if (g <= 0 || c % g != 0 || oc % g != 0)
    call.bad_attr("groups", std::to_string(g) + " must divide the input channels " +
                                std::to_string(c) + " and output channels " + std::to_string(oc));
  if (f.ic != c / g)
    call.bad_input(1, "(filter) has shape " + dims_str(call.in(1).dims) + " with " +
                          std::to_string(f.ic) + " input channels; expected " +
                          std::to_string(c / g) + " for x " + dims_str(call.in(0).dims) +
                          " and groups " + std::to_string(g));
  Pads p;
  const std::string padding = call.attr_str("padding", std::string(""));
  const std::string auto_pad = call.attr_str("auto_pad", std::string(""));
  if (padding == "SAME" || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const bool lower = auto_pad == "SAME_LOWER";
    same_pad(h, kh, sh, dh, lower, p.t, p.b);
    same_pad(wd, kw, sw, dw, lower, p.l, p.r);
  } else if (padding != "VALID" && auto_pad != "VALID") {
    auto v = call.attr_ints("pads", std::vector<int64_t>{0, 0, 0, 0});
    if (v.size() != 4) call.bad_attr("pads", "must have 4 entries (top, bottom, left, right)");
    p = {v[0], v[1], v[2], v[3]};
  }
  const int64_t oh = (h + p.t + p.b - dh * (kh - 1) - 1) / sh + 1;
  const int64_t ow = (wd + p.l + p.r - dw * (kw - 1) - 1) / sw + 1;
  if (oh <= 0 || ow <= 0)
    call.bad_input(0, "has shape " + dims_str(x.dims) + ", too small for a " + std::to_string(kh) +
                          "x" + std::to_string(kw) + " kernel");
  const bool bias = call.has(2);
  if (bias) {
    call.same_dtype(0, 2);
    if (call.in(2).element_count() != oc)
      call.bad_input(2, "(bias) has shape " + dims_str(call.in(2).dims) + "; expected [" +
                            std::to_string(oc) + "]");
  }
  if (nhwc) call.output(x.dtype, {n, oh, ow, oc}, Format::nhwc);
  else call.output(x.dtype, {n, oc, oh, ow}, x.format);
  if (n == 0) return make_op([](const auto &, const auto &, backend::AiCores &) {});

  const memory::desc wuser =
      g == 1 ? memory::desc({oc, c, kh, kw}, dnnl_f32(), {f.so, f.si, f.sh, f.sw})
             : memory::desc({g, oc / g, c / g, kh, kw}, dnnl_f32(),
                            {oc / g * f.so, f.so, f.si, f.sh, f.sw});
  const memory::desc wany = g == 1 ? memory::desc({oc, c, kh, kw}, dnnl_f32(), tag::any)
                                   : memory::desc({g, oc / g, c / g, kh, kw}, dnnl_f32(), tag::any);
  const memory::desc bmd = plain({oc});
  // A tensor of one pixel per image has the same bytes in either layout: described channels-last
  // it needs no reorder around a channels-last kernel (the squeeze-excite 1x1 convolutions).
  const bool x_cl = x.channels_last || h * wd == 1,
             y_cl = nhwc || output_channels_last(call) || oh * ow == 1;
  // A 1x1 convolution of one channels-last image with stride 1 and no padding reads and writes
  // its pixels in order: seen as one column of h * w rows, it splits over the AI cores by
  // pixels, also when it has too few rows for bands of rows (PP-OCR rec's 480 -> 480 on 3x80,
  // 8% of its time, ran on one core).
  const bool flat = n == 1 && kh == 1 && kw == 1 && sh == 1 && sw == 1 && p.t == 0 && p.b == 0 &&
                    p.l == 0 && p.r == 0 && x_cl && y_cl;
  const std::vector<int64_t> xdims = flat ? std::vector<int64_t>{n, c, h * wd, 1} : x.dims;
  const std::vector<int64_t> ydims =
      flat ? std::vector<int64_t>{n, oc, oh * ow, 1} : std::vector<int64_t>{n, oc, oh, ow};
  const int64_t rows_in = xdims[2], rows_out = ydims[2];
  const DType dt = x.dtype;
  if (dt == DType::f32 && g == 1 && kh == 3 && kw == 3 && sh == 1 && sw == 1 && dh == 1 &&
      dw == 1 && x_cl && y_cl) {
    const Winograd3x3 wg{n, c, h, wd, oc, p.t, p.l, oh, ow, f.so, f.si, f.sh, f.sw, bias};
    if (winograd_pays(wg)) return winograd_conv(wg);
  }
  // Such a convolution over few input channels and many pixels is a matmul, pixels [P, C] by
  // the filter seen as [C, O] (its transpose): oneDNN's channels-last 1x1 kernel is slow there
  // and its blocked one costs a reorder in and out (PP-OCR det's 16 -> 32 on 320x320: 1.1 ms
  // plus 1.8 ms of reorders under the AVX2 cap). Bands of pixel rows go to the AI cores.
  if (flat && g == 1 && c < 32 && h * wd >= 65536 && dt == DType::f32) {
    const int64_t pixels = h * wd;
    const memory::desc wmd({c, oc}, dnnl_f32(), dims_t{1, c}),
        bias_row({1, oc}, dnnl_f32(), dims_t{oc, 1});
    return dnnl_op(call, [=](unsigned parts) {
      std::vector<DnnlPart> out;
      for (int64_t i = 0; i < parts; ++i) {
        const int64_t r0 = pixels * i / parts, r1 = pixels * (i + 1) / parts;
        const memory::desc src({r1 - r0, c}, dnnl_f32(), dims_t{c, 1}),
            dst({r1 - r0, oc}, dnnl_f32(), dims_t{oc, 1});
        DnnlPart part{[=] {
                        const auto d = bias ? dnnl::matmul::desc(src, wmd, bias_row, dst)
                                            : dnnl::matmul::desc(src, wmd, dst);
                        return dnnl::matmul::primitive_desc(d, dnnl_attr(), dnnl_engine());
                      },
                      {{DNNL_ARG_SRC, 0, src, dt},
                       {DNNL_ARG_WEIGHTS, 1, wmd, dt},
                       {DNNL_ARG_DST, -1, dst, dt}},
                      {static_cast<size_t>(r0 * c) * sizeof(float), 0,
                       static_cast<size_t>(r0 * oc) * sizeof(float)}};
        if (bias) {
          part.args.push_back({DNNL_ARG_BIAS, 2, bias_row, dt});
          part.offsets.push_back(0);
        }
        out.push_back(std::move(part));
      }
      return out;
    });
  }
  // The primitive for src and dst slices, a filter of w_any's dims and a bias b, with the
  // slice's top and bottom padding.
  auto conv_pd = [=](const memory::desc &src, const memory::desc &dst, const memory::desc &w_any,
                     const memory::desc &b, int64_t pt, int64_t pb) {
    auto make = [&](const memory::desc &s, const memory::desc &y) {
      const auto d =
          bias ? dnnl::convolution_forward::desc(
                     dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, s,
                     w_any, b, y, {sh, sw}, {dh - 1, dw - 1}, {pt, p.l}, {pb, p.r})
               : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                 dnnl::algorithm::convolution_direct, s, w_any, y,
                                                 {sh, sw}, {dh - 1, dw - 1}, {pt, p.l}, {pb, p.r});
      return dnnl::convolution_forward::primitive_desc(d, dnnl_attr(), dnnl_engine());
    };
    // Free to choose, oneDNN's kernels below AVX-512 take 8-channel blocks, which costs a
    // reorder into and out of every convolution between channels-last tensors. Its AVX2 JIT
    // kernels take channels-last tensors about as fast (PP-OCR det: within 5% per
    // convolution), except the 1x1 one over fewer than 32 input channels of many pixels (det's
    // 16 -> 32 on 320x320: 9.0 ms against 1.0 ms; its 12 -> 96 on 160x160 runs as fast either
    // way).
    if (isa() < Isa::avx512 && x_cl && y_cl && (kh * kw > 1 || c >= 32 || h * wd < 65536)) {
      try {
        auto pd = make(src, dst);
        if (std::string(pd.impl_info_str()).rfind("jit", 0) == 0) return pd;
      } catch (const dnnl::error &) {  // no kernel for these layouts
      }
    }
    return make(any_like(src), any_like(dst));
  };
  // Images [n0, n0 + nn), output rows [r0, r1): the input rows they read, with the padding
  // that falls inside the slice.
  auto part = [=](int64_t n0, int64_t nn, int64_t r0, int64_t r1) -> std::optional<DnnlPart> {
    int64_t i0 = 0, i1 = rows_in, pt = p.t, pb = p.b;
    if (r0 != 0 || r1 != rows_out) {
      const int64_t top = r0 * sh - p.t, last = (r1 - 1) * sh - p.t + (kh - 1) * dh;
      i0 = std::max<int64_t>(0, top);
      i1 = std::min(rows_in - 1, last) + 1;
      pt = i0 - top;
      pb = std::max<int64_t>(0, last - (rows_in - 1));
      if (i1 <= i0) return std::nullopt;
    }
    const auto [src, src_at] = nchw_slice(xdims, x_cl, n0, nn, i0, i1);
    const auto [dst, dst_at] = nchw_slice(ydims, y_cl, n0, nn, r0, r1);
    DnnlPart part{
        [=] { return conv_pd(src, dst, wany, bmd, pt, pb); },
        {{DNNL_ARG_SRC, 0, src, dt}, {DNNL_ARG_WEIGHTS, 1, wuser, dt}, {DNNL_ARG_DST, -1, dst, dt}},
        {src_at, 0, dst_at}};
    if (bias) {
      part.args.push_back({DNNL_ARG_BIAS, 2, bmd, dt});
      part.offsets.push_back(0);
    }
    return part;
  };
  // Output channels [o0, o1) of the whole op: that band of the filter, bias and y (one image).
  auto channel_band = [=](int64_t o0, int64_t o1) {
    DnnlPart pt = *part(0, 1, 0, rows_out);
    const int64_t cs = y_cl ? 1 : rows_out * ydims[3];  // y's channel stride
    const memory::desc yb({1, o1 - o0, rows_out, ydims[3]}, dnnl_f32(),
                          y_cl ? dims_t{rows_out * ydims[3] * oc, 1, ydims[3] * oc, oc}
                               : dims_t{oc * cs, cs, ydims[3], 1});
    const memory::desc wb({o1 - o0, c, kh, kw}, dnnl_f32(), {f.so, f.si, f.sh, f.sw}),
        w_any({o1 - o0, c, kh, kw}, dnnl_f32(), tag::any), sb = pt.args[0].user;
    const auto bd = plain({o1 - o0});
    pt.make_pd = [=] { return conv_pd(sb, yb, w_any, bd, p.t, p.b); };
    pt.args[1].user = wb;
    pt.offsets[1] = static_cast<size_t>(o0 * f.so) * sizeof(float);
    pt.args[2].user = yb;
    pt.offsets[2] += static_cast<size_t>(o0 * cs) * sizeof(float);
    if (bias) {
      pt.args[3].user = bd;
      pt.offsets[3] = static_cast<size_t>(o0) * sizeof(float);
    }
    return pt;
  };
  return dnnl_op(call, [=](unsigned parts) {
    std::vector<DnnlPart> out;
    // One image with too few output rows for bands of rows (PP-OCR rec's 1x3 convolutions over
    // one row of 40 pixels, 480 and 960 -> 60 channels, 0.3 ms on one core of two): bands of
    // output channels, each reading all of x, in multiples of 8 channels (oneDNN's blocks).
    // At least 1M multiply-adds a part: a squeeze-excite's 1x1 on one pixel is not worth it.
    const int64_t macs = oc * c * kh * kw * rows_out * ydims[3];
    if (parts > 1 && dt == DType::f32 && n == 1 && g == 1 &&
        rows_out < 2 * static_cast<int64_t>(parts) && oc >= 16 * static_cast<int64_t>(parts) &&
        macs >= (int64_t{1} << 20) * static_cast<int64_t>(parts)) {
      const int64_t blocks = (oc + 7) / 8;
      for (int64_t i = 0; i < parts; ++i)
        out.push_back(channel_band(std::min(oc, blocks * i / parts * 8),
                                   std::min(oc, blocks * (i + 1) / parts * 8)));
      return out;
    }
    // f32 only: converted f16/bf16 tensors are whole f32 copies, not sliceable in place.
    // With stride 1, uneven bands still pay: PP-OCR rec's depthwise 5x5 over 3 rows of 480
    // channels (oneDNN's kernel takes no channel slice) ran whole on one core of two, slower
    // than on one core alone as half its input sat in the other core's cache (2 cores: 74-77
    // -> 62-65 us). Its stride-2 twin over 6 input rows got slower split 1 + 2 (90-94 -> 120-135
    // us): the 2-row band reads every input row.
    const int64_t min_rows = static_cast<int64_t>(parts) * (sh == 1 ? 1 : 2);
    if (parts > 1 && dt == DType::f32 && (n >= parts || (n == 1 && rows_out >= min_rows))) {
      const int64_t total = n >= parts ? n : rows_out;
      for (int64_t i = 0; i < parts; ++i) {
        const int64_t a = total * i / parts, b = total * (i + 1) / parts;
        auto pt = n >= parts ? part(a, b - a, 0, rows_out) : part(0, 1, a, b);
        if (!pt) break;
        out.push_back(std::move(*pt));
      }
      if (out.size() == parts) return out;
      out.clear();
    }
    out.push_back(*part(0, n, 0, rows_out));
    return out;
  });
}

// ---- Conv2DTranspose ----

// A transposed convolution whose windows neither overlap nor leave gaps (stride = kernel, no
// padding, dilation or groups) writes an independent kh x kw patch per input pixel:
// y[n, o, Y*kh + i, X*kw + j] = b[o] + sum_c x[n, c, Y, X] * w[c, o, i, j], that is one matmul
// per image and kernel tap, [H, W, C] x [C, O] into a strided view of y. Run as parts on the
// AI cores. oneDNN's deconvolution pads the channels to blocks of 16 and is several times
// slower on such layers (PP-OCR det's 24 -> 24 and 24 -> 1 upsampling heads). y must be
// channels-last, or have one channel (then both layouts are the same).
std::unique_ptr<PreparedOp> patch_deconv(OpCall &call, size_t xi, const TensorDesc &x, int64_t oc,
                                         int64_t kh, int64_t kw, bool bias) {
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], w = x.dims[3], oh = h * kh,
                ow = w * kw;
  // With one output channel the kw taps of a kernel row are adjacent in y: one matmul per
  // kernel row, N = kw; otherwise one per tap, N = oc.
  const int64_t taps = oc == 1 ? 1 : kw, cols = oc == 1 ? kw : oc;
  const memory::desc src = x.channels_last
                               ? memory::desc({h, w, c}, dnnl_f32(), dims_t{w * c, c, 1})
                               : memory::desc({h, w, c}, dnnl_f32(), dims_t{w, 1, h * w});
  const memory::desc wts({1, c, cols}, dnnl_f32(),
                         dims_t{c * oc * kh * kw, oc * kh * kw, oc == 1 ? 1 : kh * kw});
  const memory::desc dst({h, w, cols}, dnnl_f32(), dims_t{kh * ow * oc, kw * oc, 1});
  const int xt = static_cast<int>(xi);
  // The bias, per output column: oc == 1 repeats it over the kw taps.
  const memory::desc bmd({1, 1, cols}, dnnl_f32(), dims_t{cols, cols, oc == 1 ? 0 : 1});
  return dnnl_op(call, [=](unsigned) {
    std::vector<DnnlPart> parts;
    for (int64_t img = 0; img < n; ++img)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < taps; ++j) {
          DnnlPart p{[=] {
                       const memory::desc wany({1, c, cols}, dnnl_f32(), tag::any);
                       const memory::desc bdense({1, 1, cols}, dnnl_f32(), tag::abc);
                       const auto d = bias ? dnnl::matmul::desc(src, wany, bdense, dst)
                                           : dnnl::matmul::desc(src, wany, dst);
                       return dnnl::matmul::primitive_desc(d, dnnl_attr(), dnnl_engine());
                     },
                     {{DNNL_ARG_SRC, xt, src, DType::f32},
                      {DNNL_ARG_WEIGHTS, xt + 1, wts, DType::f32},
                      {DNNL_ARG_DST, -1, dst, DType::f32}},
                     {static_cast<size_t>(img * c * h * w) * sizeof(float),
                      static_cast<size_t>(i * kw + j) * sizeof(float),
                      static_cast<size_t>(img * oh * ow * oc + (i * ow + j) * oc) * sizeof(float)}};
          if (bias) {
            p.args.push_back({DNNL_ARG_BIAS, xt + 2, bmd, DType::f32});
            p.offsets.push_back(0);
          }
          parts.push_back(std::move(p));
        }
    return parts;
  });
}

std::unique_ptr<PreparedOp> build_deconv(OpCall &call) {
  const bool d_form = call.type() == "Conv2DTransposeD";
  const size_t xi = d_form ? 0 : 1;
  if (d_form) call.inputs_between(2, 4, "x, filter, [bias], [offset_w]");
  else call.inputs_between(3, 5, "input_size, x, filter, [bias], [offset_w]");
  require_nchw(call);
  call.dtype_in(xi, kFloats);
  call.same_dtype(xi, xi + 1);
  call.rank_is(xi, 4);
  call.rank_is(xi + 1, 4);
  const auto &x = call.in(xi), &w = call.in(xi + 1);
  const auto [sh, sw] = hw_of(call, "strides", {});
  const auto [dh, dw] = hw_of(call, "dilations", std::vector<int64_t>{1, 1, 1, 1});
  const auto [oph, opw] = hw_of(call, "output_padding", std::vector<int64_t>{0, 0, 0, 0});
  const int64_t g = call.attr_int("groups", 1);
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], wd = x.dims[3];
  const int64_t kh = w.dims[2], kw = w.dims[3];
  if (sh <= 0 || sw <= 0) call.bad_attr("strides", "must be positive");
  if (g <= 0 || c % g != 0)
    call.bad_attr("groups",
                  std::to_string(g) + " must divide the input channels " + std::to_string(c));
  if (w.dims[0] != c)
    call.bad_input(xi + 1, "(filter) has shape " + dims_str(w.dims) + "; expected [" +
                               std::to_string(c) + ", Cout/groups, kH, kW]");
  const int64_t oc = w.dims[1] * g;
  auto pv = call.attr_ints("pads", std::vector<int64_t>{0, 0, 0, 0});
  if (pv.size() != 4) call.bad_attr("pads", "must have 4 entries (top, bottom, left, right)");
  int64_t oh = (h - 1) * sh - pv[0] - pv[1] + dh * (kh - 1) + 1 + oph;
  int64_t ow = (wd - 1) * sw - pv[2] - pv[3] + dw * (kw - 1) + 1 + opw;
  std::optional<std::vector<int64_t>> size;
  if (d_form) size = call.attr_ints("input_size");
  else if (auto v = call.const_ints(0)) size = v;
  else if (const TensorDesc *y = call.given(0)) size = y->dims;
  if (size) {
    if (size->size() != 4)
      call.bad_attr("input_size", "must have 4 entries, got " + std::to_string(size->size()));
    oh = (*size)[2];
    ow = (*size)[3];
  }
  // oneDNN derives the output size from the paddings: the end paddings absorb output_padding
  // and input_size.
  const int64_t pb = (h - 1) * sh - pv[0] + dh * (kh - 1) + 1 - oh;
  const int64_t pr = (wd - 1) * sw - pv[2] + dw * (kw - 1) + 1 - ow;
  if (oh <= 0 || ow <= 0)
    call.bad_attr("output_padding", "or input_size give an output of " + std::to_string(oh) + "x" +
                                        std::to_string(ow) +
                                        ", which this transposed convolution cannot produce");
  const bool bias = call.has(xi + 2);
  if (bias && call.in(xi + 2).element_count() != oc)
    call.bad_input(xi + 2, "(bias) must have " + std::to_string(oc) + " elements");
  if (bias) call.same_dtype(xi, xi + 2);
  call.output(x.dtype, {n, oc, oh, ow}, x.format);
  if (n == 0) return make_op([](const auto &, const auto &, backend::AiCores &) {});
  const bool y_cl = output_channels_last(call);
  const bool unpadded = pv == std::vector<int64_t>{0, 0, 0, 0} && pb == 0 && pr == 0;
  if (g == 1 && sh == kh && sw == kw && dh == 1 && dw == 1 && unpadded && x.dtype == DType::f32 &&
      (y_cl || oc == 1))
    return patch_deconv(call, xi, x, oc, kh, kw, bias);
  const memory::desc src = activation(x.dims, x.channels_last),
                     dst = activation({n, oc, oh, ow}, y_cl);
  const memory::desc wuser = g == 1
                                 ? memory::desc({oc, c, kh, kw}, dnnl_f32(), tag::iohw)
                                 : memory::desc({g, oc / g, c / g, kh, kw}, dnnl_f32(), tag::giohw);
  const memory::desc wany = g == 1 ? memory::desc({oc, c, kh, kw}, dnnl_f32(), tag::any)
                                   : memory::desc({g, oc / g, c / g, kh, kw}, dnnl_f32(), tag::any);
  const memory::desc bmd = plain({oc});
  const int tensor_w = static_cast<int>(xi + 1);
  std::vector<DnnlArg> args = {{DNNL_ARG_SRC, static_cast<int>(xi), src, x.dtype},
                               {DNNL_ARG_WEIGHTS, tensor_w, wuser, x.dtype},
                               {DNNL_ARG_DST, -1, dst, x.dtype}};
  if (bias) args.push_back({DNNL_ARG_BIAS, tensor_w + 1, bmd, x.dtype});
  return dnnl_op(call, std::move(args), [=] {
    const memory::desc sany = any_like(src), dany = any_like(dst);
    const auto d =
        bias ? dnnl::deconvolution_forward::desc(
                   dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct, sany,
                   wany, bmd, dany, {sh, sw}, {dh - 1, dw - 1}, {pv[0], pv[2]}, {pb, pr})
             : dnnl::deconvolution_forward::desc(
                   dnnl::prop_kind::forward_inference, dnnl::algorithm::deconvolution_direct, sany,
                   wany, dany, {sh, sw}, {dh - 1, dw - 1}, {pv[0], pv[2]}, {pb, pr});
    return dnnl::deconvolution_forward::primitive_desc(d, dnnl_attr(), dnnl_engine());
  });
}

// ---- MatMul / BatchMatMul ----

// Row-major [.., r, c] seen as its transpose when `t`.
memory::desc mat_desc(std::vector<int64_t> dims, bool t) {
  auto strides = contiguous_strides(dims);
  const size_t r = dims.size();
  if (t) {
    std::swap(dims[r - 1], dims[r - 2]);
    std::swap(strides[r - 1], strides[r - 2]);
  }
  return memory::desc(dims_t(dims.begin(), dims.end()), dnnl_f32(),
                      dims_t(strides.begin(), strides.end()));
}

std::unique_ptr<PreparedOp> build_matmul(OpCall &call) {
  const std::string &t = call.type();
  const bool batch = t == "BatchMatMul" || t == "BatchMatMulV2";
  const bool bias_ok = t != "BatchMatMul";
  call.inputs_between(2, bias_ok ? 4 : 2, bias_ok ? "x1, x2, [bias], [offset_w]" : "x1, x2");
  call.dtype_in(0, kFloats);
  // An f32 x against a float16 or bfloat16 weight stored [N, K], no bias: the skinny kernel
  // (a few rows) or the panel one reads the weight as it is (aclnnMm and aclnnMatmul of such
  // operands).
  const DType xt = call.in(0).dtype, wt = call.in(1).dtype;
  const bool mixed = xt == DType::f32 && (wt == DType::f16 || wt == DType::bf16) && !batch &&
                     !call.has(2) && !call.attr_bool("transpose_x1", false) &&
                     call.attr_bool("transpose_x2", false) && call.in(0).dims.size() == 2 &&
                     call.in(1).dims.size() == 2;
  if (!mixed) call.same_dtype(0, 1);
  const bool ta = batch ? call.attr_bool("adj_x1", false) : call.attr_bool("transpose_x1", false);
  const bool tb = batch ? call.attr_bool("adj_x2", false) : call.attr_bool("transpose_x2", false);
  auto a = call.in(0).dims, b = call.in(1).dims;
  if (batch) {
    call.rank_at_least(0, 2);
    call.rank_at_least(1, 2);
  } else {
    call.rank_is(0, 2);
    call.rank_is(1, 2);
  }
  const size_t r = std::max(a.size(), b.size());
  a.insert(a.begin(), r - a.size(), 1);
  b.insert(b.begin(), r - b.size(), 1);
  const int64_t m = ta ? a[r - 1] : a[r - 2], k = ta ? a[r - 2] : a[r - 1];
  const int64_t k2 = tb ? b[r - 1] : b[r - 2], nn = tb ? b[r - 2] : b[r - 1];
  if (k != k2)
    call.bad_input(1, "has shape " + dims_str(call.in(1).dims) + ", whose K (" +
                          std::to_string(k2) + ") differs from x1's K (" + std::to_string(k) +
                          ") of shape " + dims_str(call.in(0).dims));
  std::vector<int64_t> out(r);
  for (size_t i = 0; i + 2 < r; ++i) {
    if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
      call.bad_input(1, "has batch dims that do not broadcast with x1's: " +
                            dims_str(call.in(0).dims) + " vs " + dims_str(call.in(1).dims));
    out[i] = std::max(a[i], b[i]);
  }
  out[r - 2] = m;
  out[r - 1] = nn;
  const bool bias = call.has(2);
  if (bias) {
    call.same_dtype(0, 2);
    if (call.in(2).element_count() != nn)
      call.bad_input(2, "(bias) must have N = " + std::to_string(nn) + " elements, has shape " +
                            dims_str(call.in(2).dims));
  }
  // The output keeps the caller's rank: a 2-D x2 with a 3-D x1 gives a 3-D y.
  call.output(call.in(0).dtype, out, call.in(0).format);
  if (product(out) == 0 || k == 0) {
    if (k == 0 && product(out) != 0) {
      // Empty sum: y is 0 (+ bias).
      const DType dt = call.in(0).dtype;
      const int64_t total = product(out);
      return make_op(
          [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &) {
            std::vector<float> y(total, 0.0f), bv(nn, 0.0f);
            if (bias) to_f32(dt, in[2].data, bv.data(), nn);
            for (int64_t i = 0; i < total; ++i) y[i] = bv[i % nn];
            from_f32(dt, y.data(), o[0].data, total);
          });
    }
    return make_op([](const auto &, const auto &, backend::AiCores &) {});
  }
  const DType dt = call.in(0).dtype;
  if (!ta && tb && m <= kSkinnyMaxRows && product(out) == m * nn)
    return skinny_matmul_op(dt, wt, m, k, nn, bias);
  // More rows against a 16-bit weight stored [N, K]: oneDNN has no f16 matmul on this CPU.
  if (!ta && tb && (wt == DType::f16 || wt == DType::bf16) && product(out) == m * nn)
    return panel_matmul_op(dt, wt, m, k, nn, bias);
  std::vector<int64_t> bias_dims(r, 1);
  bias_dims[r - 1] = nn;
  // A transposed operand is stored row-major as given; the desc views it transposed.
  const memory::desc src = mat_desc(a, ta), wts = mat_desc(b, tb), dst = plain(out),
                     bmd = plain(bias_dims);
  // Parts on the AI cores: bands of M rows (every part reads all of x2) when x1 is the larger
  // operand, else bands of N columns (every part reads all of x1). A band keeps the full
  // tensor's strides; its offset is where it starts. Splits are f32 only (see DnnlOp).
  const bool by_rows = src.get_size() >= wts.get_size();
  const int64_t extent = by_rows ? m : nn;
  return dnnl_op(call, [=](unsigned parts) {
    const int64_t n_parts = dt == DType::f32 ? std::clamp<int64_t>(extent / 8, 1, parts) : 1;
    std::vector<DnnlPart> out_parts;
    for (int64_t i = 0; i < n_parts; ++i) {
      const int64_t b0 = extent * i / n_parts, b1 = extent * (i + 1) / n_parts;
      // The band [b0, b1) of logical dim `dim` (from the end) of md, and its byte offset.
      auto band = [&](const memory::desc &md, int dim) -> std::pair<memory::desc, size_t> {
        if (n_parts == 1) return {md, 0};
        const auto &blk = md.data.format_desc.blocking;
        const int d = md.data.ndims + dim;
        dims_t dims = md.dims(), strides(blk.strides, blk.strides + md.data.ndims);
        dims[d] = b1 - b0;
        return {memory::desc(dims, dnnl_f32(), strides),
                static_cast<size_t>(b0 * strides[d]) * sizeof(float)};
      };
      const auto [s, s_at] = by_rows ? band(src, -2) : std::pair{src, size_t{0}};
      const auto [w, w_at] = by_rows ? std::pair{wts, size_t{0}} : band(wts, -1);
      const auto [y, y_at] = band(dst, by_rows ? -2 : -1);
      const auto [bm, b_at] = by_rows || !bias ? std::pair{bmd, size_t{0}} : band(bmd, -1);
      DnnlPart part{
          [=] {
            const auto d = bias ? dnnl::matmul::desc(s, w, bm, y) : dnnl::matmul::desc(s, w, y);
            return dnnl::matmul::primitive_desc(d, dnnl_attr(), dnnl_engine());
          },
          {{DNNL_ARG_SRC, 0, s, dt}, {DNNL_ARG_WEIGHTS, 1, w, dt}, {DNNL_ARG_DST, -1, y, dt}},
          {s_at, w_at, y_at}};
      if (bias) {
        part.args.push_back({DNNL_ARG_BIAS, 2, bm, dt});
        part.offsets.push_back(b_at);
      }
      out_parts.push_back(std::move(part));
    }
    return out_parts;
  });
}

// ---- Pooling ----

std::unique_ptr<PreparedOp> build_pool(OpCall &call) {
  const std::string &t = call.type();
  const bool is_max = t == "MaxPool" || t == "MaxPoolV3";
  const bool v2 = t == "MaxPoolV3" || t == "AvgPoolV2";
  call.inputs_between(1, 1, "x");
  require_nchw(call);
  call.dtype_in(0, kFloats);
  call.rank_is(0, 4);
  const auto &x = call.in(0);
  const int64_t n = x.dims[0], c = x.dims[1], h = x.dims[2], w = x.dims[3];
  auto [kh, kw] = hw_of(call, "ksize", {});
  const auto [sh, sw] = hw_of(call, "strides", {});
  if (sh <= 0 || sw <= 0) call.bad_attr("strides", "must be positive");
  Pads p;
  bool ceil_mode = false, exclusive = true;
  std::string mode =
      v2 ? call.attr_str("padding_mode", std::string("CALCULATED")) : call.attr_str("padding");
  if (v2) {
    if (call.attr_bool("global_pooling", false)) {
      kh = h;
      kw = w;
      mode = "VALID";
    }
    ceil_mode = call.attr_bool("ceil_mode", false);
    if (!is_max) exclusive = call.attr_bool("exclusive", true);
  }
  if (kh <= 0 || kw <= 0) call.bad_attr("ksize", "must be positive");
  if (mode == "SAME") {
    same_pad(h, kh, sh, 1, false, p.t, p.b);
    same_pad(w, kw, sw, 1, false, p.l, p.r);
  } else if (mode == "CALCULATED") {
    auto v = call.attr_ints("pads", std::vector<int64_t>{0, 0, 0, 0});
    if (v.size() != 4) call.bad_attr("pads", "must have 4 entries (top, bottom, left, right)");
    p = {v[0], v[1], v[2], v[3]};
  } else if (mode != "VALID") {
    call.bad_attr(v2 ? "padding_mode" : "padding",
                  "is '" + mode + "'; expected SAME, VALID" + (v2 ? " or CALCULATED" : ""));
  }
  auto out_len = [&](int64_t in, int64_t k, int64_t s, int64_t p0, int64_t p1) {
    const int64_t span = in + p0 + p1 - k;
    return (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  };
  const int64_t oh = out_len(h, kh, sh, p.t, p.b), ow = out_len(w, kw, sw, p.l, p.r);
  if (oh <= 0 || ow <= 0)
    call.bad_input(0, "has shape " + dims_str(x.dims) + ", smaller than the pooling window");
  // ceil_mode: the last window may start inside the padding-free region and run past it.
  p.b = (oh - 1) * sh + kh - h - p.t;
  p.r = (ow - 1) * sw + kw - w - p.l;
  call.output(x.dtype, {n, c, oh, ow}, x.format);
  if (n == 0 || c == 0) return make_op([](const auto &, const auto &, backend::AiCores &) {});
  // The model's plan may store x and y channels-last (between convolutions).
  const memory::desc src = activation(x.dims, x.channels_last),
                     dst = activation({n, c, oh, ow}, output_channels_last(call));
  const auto alg = is_max ? dnnl::algorithm::pooling_max
                          : (exclusive ? dnnl::algorithm::pooling_avg_exclude_padding
                                       : dnnl::algorithm::pooling_avg_include_padding);
  std::vector<DnnlArg> args = {{DNNL_ARG_SRC, 0, src, x.dtype}, {DNNL_ARG_DST, -1, dst, x.dtype}};
  return dnnl_op(call, std::move(args), [=] {
    dnnl::pooling_forward::primitive_desc plain_pd(
        dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference, alg, src, dst, {sh, sw},
                                    {kh, kw}, {p.t, p.l}, {p.b, p.r}),
        dnnl_attr(), dnnl_engine());
    // oneDNN's JIT pooling takes NHWC, and NCHW with AVX-512; NCHW below AVX-512 runs
    // reference code, many times slower (PP-OCR cls's max pool: 0.2 ms) than reordering to
    // 8-channel blocks and back.
    if (std::string(plain_pd.impl_info_str()).rfind("jit", 0) == 0) return plain_pd;
    const memory::desc bsrc(src.dims(), dnnl_f32(), tag::aBcd8b),
        bdst(dst.dims(), dnnl_f32(), tag::aBcd8b);
    return dnnl::pooling_forward::primitive_desc(
        dnnl::pooling_forward::desc(dnnl::prop_kind::forward_inference, alg, bsrc, bdst, {sh, sw},
                                    {kh, kw}, {p.t, p.l}, {p.b, p.r}),
        dnnl_attr(), dnnl_engine());
  });
}

template <class T>
void global_pool(const T *x, T *y, int64_t planes, int64_t size, bool is_max,
                 backend::AiCores &cores) {
  parallel_range(cores, static_cast<size_t>(planes), std::max<size_t>(1, 16384 / (size + 1)),
                 [&](size_t b, size_t e) {
                   for (size_t p = b; p < e; ++p) {
                     const T *s = x + p * size;
                     if (is_max) {
                       float m = -INFINITY;
                       for (int64_t i = 0; i < size; ++i) m = std::max(m, static_cast<float>(s[i]));
                       y[p] = T(m);
                     } else {
                       // In double: a float sum over a large plane (448x448) drifts by 1e-3 of the
                       // mean.
                       double acc = 0;
                       for (int64_t i = 0; i < size; ++i) acc += static_cast<float>(s[i]);
                       y[p] = T(static_cast<float>(acc / static_cast<double>(size)));
                     }
                   }
                 });
}

// The same over a channels-last f32 input: per image, its H*W rows of C channels summed (or
// maxed) lane by lane, in chunks of channels.
OPENACL_SIMD_KERNEL void pool_rows(const float *x, float *acc, int64_t rows, int64_t stride,
                                   int64_t len, bool is_max) {
  for (int64_t k = 0; k < len; ++k) acc[k] = x[k];
  for (int64_t r = 1; r < rows; ++r) {
    const float *row = x + r * stride;
    if (is_max)
      for (int64_t k = 0; k < len; ++k) acc[k] = std::max(acc[k], row[k]);
    else
      for (int64_t k = 0; k < len; ++k) acc[k] += row[k];
  }
}

void global_pool_channels_last(const float *x, float *y, int64_t n, int64_t c, int64_t size,
                               bool is_max, backend::AiCores &cores) {
  constexpr int64_t kChunk = 64;
  const int64_t chunks = (c + kChunk - 1) / kChunk;
  parallel_range(cores, static_cast<size_t>(n * chunks),
                 std::max<size_t>(1, 16384 / (size * kChunk + 1)), [&](size_t b, size_t e) {
                   for (size_t t = b; t < e; ++t) {
                     const int64_t img = static_cast<int64_t>(t) / chunks,
                                   c0 = static_cast<int64_t>(t) % chunks * kChunk;
                     const int64_t len = std::min(kChunk, c - c0);
                     float *acc = y + img * c + c0;
                     const float *first = x + img * size * c + c0;
                     if (is_max) {
                       simd(OPENACL_SIMD_LAMBDA { pool_rows(first, acc, size, c, len, true); });
                       continue;
                     }
                     // Float sums of blocks of rows, added up in double: one float sum over a large
                     // plane (448x448) drifts by 1e-3 of the mean.
                     constexpr int64_t kBlock = 1024;
                     double total[kChunk] = {};
                     for (int64_t r0 = 0; r0 < size; r0 += kBlock) {
                       simd(OPENACL_SIMD_LAMBDA {
                         pool_rows(first + r0 * c, acc, std::min(kBlock, size - r0), c, len, false);
                       });
                       for (int64_t k = 0; k < len; ++k) total[k] += acc[k];
                     }
                     for (int64_t k = 0; k < len; ++k)
                       acc[k] = static_cast<float>(total[k] / static_cast<double>(size));
                   }
                 });
}

std::unique_ptr<PreparedOp> build_global_pool(OpCall &call) {
  call.inputs_between(1, 1, "x");
  call.dtype_in(0, kFloats);
  call.rank_at_least(0, 3);
  const auto &x = call.in(0);
  std::vector<int64_t> out = x.dims;
  for (size_t i = 2; i < out.size(); ++i) out[i] = 1;
  call.output(x.dtype, out, x.format);
  const int64_t planes = x.dims[0] * x.dims[1], size = product(x.dims, 2);
  if (size == 0 && planes != 0)
    call.bad_input(0, "has an empty spatial extent " + dims_str(x.dims));
  const bool is_max = call.type() == "GlobalMaxPool";
  const DType dt = x.dtype;
  if (x.channels_last) {
    if (dt != DType::f32 || x.dims.size() != 4)
      call.bad_input(0, "is channels-last; only 4-D float32 is supported so");
    const int64_t n = x.dims[0], c = x.dims[1];
    return make_op(
        [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &cores) {
          global_pool_channels_last(static_cast<const float *>(in[0].data),
                                    static_cast<float *>(o[0].data), n, c, size, is_max, cores);
        });
  }
  return make_op(
      [=](const std::vector<Tensor> &in, const std::vector<Tensor> &o, backend::AiCores &cores) {
        visit_dtype(dt, [&](auto v) {
          using T = decltype(v);
          if constexpr (std::is_same_v<T, float> || std::is_same_v<T, half_t> ||
                        std::is_same_v<T, bf16_t>)
            global_pool(static_cast<const T *>(in[0].data), static_cast<T *>(o[0].data), planes,
                        size, is_max, cores);
        });
      });
}

const Registrar reg({
    {"Conv2D", build_conv},
    {"Conv2DTranspose", build_deconv},
    {"Conv2DTransposeD", build_deconv},
    {"MatMul", build_matmul},
    {"MatMulV2", build_matmul},
    {"BatchMatMul", build_matmul},
    {"BatchMatMulV2", build_matmul},
    {"MaxPool", build_pool},
    {"AvgPool", build_pool},
    {"MaxPoolV3", build_pool},
    {"AvgPoolV2", build_pool},
    {"GlobalAveragePool", build_global_pool},
    {"GlobalMaxPool", build_global_pool},
});

}  // namespace
}  // namespace openacl::ops
