#include "model/aipp.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

#include "acl/acl_mdl.h"
#include "core/status.h"
#include "ops/half.h"

namespace openacl::model {
namespace {

[[noreturn]] void bad(const std::string &msg) {
  fail(Errc::parse_model, "--insert_op_conf: " + msg);
}

// The configuration as tokens: words, numbers, '{', '}', ':'.
std::vector<std::string> tokenize(const std::string &text) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '{' || c == '}' || c == ':') {
      tokens.emplace_back(1, c);
      ++i;
    } else {
      size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
             text[j] != '{' && text[j] != '}' && text[j] != ':' && text[j] != '#')
        ++j;
      tokens.push_back(text.substr(i, j - i));
      i = j;
    }
  }
  return tokens;
}

int32_t to_int(const std::string &key, const std::string &v) {
  int32_t x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size()) bad(key + ": '" + v + "' is not an integer");
  return x;
}

float to_float(const std::string &key, const std::string &v) {
  float x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || p != v.data() + v.size()) bad(key + ": '" + v + "' is not a number");
  return x;
}

bool to_bool(const std::string &key, const std::string &v) {
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  bad(key + ": '" + v + "' is not true or false");
}

AippFormat to_format(const std::string &v) {
  if (v == "YUV420SP_U8") return AippFormat::yuv420sp_u8;
  if (v == "XRGB8888_U8") return AippFormat::xrgb8888_u8;
  if (v == "RGB888_U8") return AippFormat::rgb888_u8;
  if (v == "YUV400_U8") return AippFormat::yuv400_u8;
  bad("input_format: '" + v +
      "' is not one of YUV420SP_U8, RGB888_U8, XRGB8888_U8, YUV400_U8 (the formats openacl's "
      "AIPP takes)");
}

using Setter = std::function<void(AippOp &, const std::string &key, const std::string &value)>;

const std::map<std::string, Setter> &setters() {
  static const std::map<std::string, Setter> s = [] {
    std::map<std::string, Setter> m;
    m["aipp_mode"] = [](AippOp &op, const std::string &k, const std::string &v) {
      if (v != "static" && v != "dynamic") bad(k + ": '" + v + "' is not static or dynamic");
      op.dynamic = v == "dynamic";
    };
    m["related_input_rank"] = [](AippOp &op, const std::string &k, const std::string &v) {
      const int32_t r = to_int(k, v);
      if (r < 0) bad(k + " is negative");
      op.input = static_cast<size_t>(r);
    };
    m["input_format"] = [](AippOp &op, const std::string &, const std::string &v) {
      op.params.format = to_format(v);
    };
    auto int_field = [&m](const std::string &key, int32_t AippParams::*field) {
      m[key] = [field](AippOp &op, const std::string &k, const std::string &v) {
        op.params.*field = to_int(k, v);
      };
    };
    auto bool_field = [&m](const std::string &key, bool AippParams::*field) {
      m[key] = [field](AippOp &op, const std::string &k, const std::string &v) {
        op.params.*field = to_bool(k, v);
      };
    };
    int_field("src_image_size_w", &AippParams::src_w);
    int_field("src_image_size_h", &AippParams::src_h);
    bool_field("crop", &AippParams::crop);
    int_field("load_start_pos_w", &AippParams::crop_x);
    int_field("load_start_pos_h", &AippParams::crop_y);
    int_field("crop_size_w", &AippParams::crop_w);
    int_field("crop_size_h", &AippParams::crop_h);
    bool_field("rbuv_swap_switch", &AippParams::rbuv_swap);
    bool_field("ax_swap_switch", &AippParams::ax_swap);
    bool_field("csc_switch", &AippParams::csc);
    bool_field("padding", &AippParams::padding);
    int_field("top_padding_size", &AippParams::pad_top);
    int_field("bottom_padding_size", &AippParams::pad_bottom);
    int_field("left_padding_size", &AippParams::pad_left);
    int_field("right_padding_size", &AippParams::pad_right);
    m["padding_value"] = [](AippOp &op, const std::string &k, const std::string &v) {
      op.params.padding_value = to_float(k, v);
    };
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c)
        m["matrix_r" + std::to_string(r) + "c" + std::to_string(c)] =
            [r, c](AippOp &op, const std::string &k, const std::string &v) {
              op.params.matrix[r][c] = to_int(k, v);
            };
    for (int i = 0; i < 3; ++i) {
      m["output_bias_" + std::to_string(i)] = [i](AippOp &op, const std::string &k,
                                                  const std::string &v) {
        op.params.output_bias[i] = to_int(k, v);
      };
      m["input_bias_" + std::to_string(i)] = [i](AippOp &op, const std::string &k,
                                                 const std::string &v) {
        op.params.input_bias[i] = to_int(k, v);
      };
    }
    for (int i = 0; i < 4; ++i) {
      m["mean_chn_" + std::to_string(i)] = [i](AippOp &op, const std::string &k,
                                               const std::string &v) {
        op.params.mean[i] = to_int(k, v);
      };
      m["min_chn_" + std::to_string(i)] = [i](AippOp &op, const std::string &k,
                                              const std::string &v) {
        op.params.min[i] = to_float(k, v);
      };
      m["var_reci_chn_" + std::to_string(i)] = [i](AippOp &op, const std::string &k,
                                                   const std::string &v) {
        op.params.var_reci[i] = to_float(k, v);
      };
    }
    bool_field("resize", &AippParams::resize);
    int_field("resize_output_w", &AippParams::resize_w);
    int_field("resize_output_h", &AippParams::resize_h);
    int_field("rotation_angle", &AippParams::rotation);
    m["single_line_mode"] = [](AippOp &, const std::string &k, const std::string &v) {
      if (to_bool(k, v)) bad(k + ": true is not supported by openacl's AIPP");
    };
    // Dynamic AIPP's reservation for rotated images: openacl needs none.
    m["support_rotation"] = [](AippOp &, const std::string &k, const std::string &v) {
      (void)to_bool(k, v);
    };
    m["max_src_image_size"] = [](AippOp &op, const std::string &k, const std::string &v) {
      const int32_t n = to_int(k, v);
      if (n < 0) bad(k + " is negative");
      op.max_src_bytes = static_cast<size_t>(n);
    };
    return m;
  }();
  return s;
}

}  // namespace

size_t AippParams::image_bytes() const {
  const size_t pixels = static_cast<size_t>(src_w) * src_h;
  switch (format) {
    case AippFormat::yuv420sp_u8:
      return pixels * 3 / 2;
    case AippFormat::xrgb8888_u8:
      return pixels * 4;
    case AippFormat::rgb888_u8:
      return pixels * 3;
    case AippFormat::yuv400_u8:
      return pixels;
  }
  return 0;
}

std::vector<AippOp> parse_aipp_config(const std::string &text) {
  const auto t = tokenize(text);
  std::vector<AippOp> ops;
  size_t i = 0;
  while (i < t.size()) {
    if (t[i] != "aipp_op" || i + 1 >= t.size() || t[i + 1] != "{")
      bad("expected 'aipp_op {', found '" + t[i] + "'");
    i += 2;
    AippOp op;
    while (true) {
      if (i >= t.size()) bad("an aipp_op block has no closing '}'");
      if (t[i] == "}") break;
      if (i + 2 >= t.size() || t[i + 1] != ":") bad("expected 'key: value' at '" + t[i] + "'");
      auto it = setters().find(t[i]);
      if (it == setters().end()) bad("'" + t[i] + "' is not an AIPP parameter");
      it->second(op, t[i], t[i + 2]);
      i += 3;
    }
    ++i;
    for (const auto &other : ops) {
      if (other.input == op.input)
        bad("two aipp_op blocks for related_input_rank " + std::to_string(op.input));
      if (other.dynamic && op.dynamic) bad("openacl takes one aipp_op block of aipp_mode: dynamic");
    }
    if (op.dynamic && op.max_src_bytes == 0)
      bad("aipp_mode: dynamic needs max_src_image_size (bytes of the largest image)");
    ops.push_back(op);
  }
  if (ops.empty()) bad("no aipp_op block");
  return ops;
}

void fit_aipp(AippParams &p, const std::vector<int64_t> &dims, Errc code,
              const std::string &where) {
  auto bad = [&](const std::string &msg) { fail(code, where + ": " + msg); };
  if (dims.size() != 4 || dims[2] <= 0 || dims[3] <= 0 || dims[1] <= 0)
    bad(std::string("the model input AIPP feeds must be static ") + (p.nhwc ? "NHWC" : "NCHW") +
        " (atc --input_shape); it is " + ops::dims_str(dims));
  const int64_t c = p.nhwc ? dims[3] : dims[1], h = p.nhwc ? dims[1] : dims[2],
                w = p.nhwc ? dims[2] : dims[3];
  if (c != p.channels())
    bad("input_format gives " + std::to_string(p.channels()) + " channels; the model input has " +
        std::to_string(c));
  const int64_t inner_h = h - (p.padding ? p.pad_top + p.pad_bottom : 0);
  const int64_t inner_w = w - (p.padding ? p.pad_left + p.pad_right : 0);
  if (!p.padding) p.pad_top = p.pad_bottom = p.pad_left = p.pad_right = 0;
  if (p.pad_top < 0 || p.pad_bottom < 0 || p.pad_left < 0 || p.pad_right < 0)
    bad("a padding size is negative");
  if (inner_h <= 0 || inner_w <= 0)
    bad("the padding sizes leave no image inside the model input " + ops::dims_str(dims));
  if (p.rotation != 0 && p.rotation != 90 && p.rotation != 180 && p.rotation != 270)
    bad("rotation_angle " + std::to_string(p.rotation) + " is not 0, 90, 180 or 270");
  const bool turned = p.rotation == 90 || p.rotation == 270;
  if (!p.crop) p.crop_x = p.crop_y = 0;
  if (p.resize) {
    // The window (the whole source without crop) is resized to what the padding leaves.
    if (p.resize_w == 0) p.resize_w = static_cast<int32_t>(inner_w);
    if (p.resize_h == 0) p.resize_h = static_cast<int32_t>(inner_h);
    if (p.resize_w < 0 || p.resize_h < 0) bad("a resize_output size is negative");
    if ((!p.crop || p.crop_w == 0 || p.crop_h == 0) && (p.src_w <= 0 || p.src_h <= 0))
      bad("resize without a crop_size needs src_image_size_w/h (the window is the source)");
    if (!p.crop || p.crop_w == 0) p.crop_w = p.src_w - p.crop_x;
    if (!p.crop || p.crop_h == 0) p.crop_h = p.src_h - p.crop_y;
  } else {
    p.resize_w = p.resize_h = p.scf_in_w = p.scf_in_h = 0;
    if (p.crop_w == 0 || !p.crop) p.crop_w = static_cast<int32_t>(turned ? inner_h : inner_w);
    if (p.crop_h == 0 || !p.crop) p.crop_h = static_cast<int32_t>(turned ? inner_w : inner_h);
  }
  if (p.src_w == 0) p.src_w = p.crop_x + p.crop_w;
  if (p.src_h == 0) p.src_h = p.crop_y + p.crop_h;
  const int64_t window_w = turned ? p.crop_h : p.crop_w, window_h = turned ? p.crop_w : p.crop_h;
  if (p.resize) {
    if ((p.scf_in_w != 0 || p.scf_in_h != 0) && (p.scf_in_w != window_w || p.scf_in_h != window_h))
      bad("scfInputSize " + std::to_string(p.scf_in_w) + "x" + std::to_string(p.scf_in_h) +
          " (WxH) is not the size of the crop window" +
          (turned ? " turned by the rotation, " : ", ") + std::to_string(window_w) + "x" +
          std::to_string(window_h));
    if (window_w <= 0 || window_h <= 0 || p.resize_w * 16 < window_w ||
        p.resize_w > 16 * window_w || p.resize_h * 16 < window_h || p.resize_h > 16 * window_h)
      bad("resizing " + std::to_string(window_w) + "x" + std::to_string(window_h) + " to " +
          std::to_string(p.resize_w) + "x" + std::to_string(p.resize_h) +
          " (WxH) leaves the scale range [1/16, 16] of each side");
  }
  const int64_t out_w = p.resize ? p.resize_w : window_w, out_h = p.resize ? p.resize_h : window_h;
  if (out_w != inner_w || out_h != inner_h)
    bad(std::string(p.resize ? "resize_output " : "crop_size ") + std::to_string(out_w) + "x" +
        std::to_string(out_h) + " (WxH" + (turned && !p.resize ? ", turned by the rotation" : "") +
        ") plus padding is not the model input's " + std::to_string(w) + "x" + std::to_string(h) +
        (p.resize ? "" : " (set resize: true to resize)"));
  if (p.crop_x < 0 || p.crop_y < 0 || p.crop_x + p.crop_w > p.src_w ||
      p.crop_y + p.crop_h > p.src_h)
    bad("the crop window (load_start_pos, crop_size) leaves the " + std::to_string(p.src_w) + "x" +
        std::to_string(p.src_h) + " source image");
  if (p.format == AippFormat::yuv420sp_u8 &&
      (p.src_w % 2 || p.src_h % 2 || p.crop_x % 2 || p.crop_y % 2))
    bad("YUV420SP_U8 needs even src_image_size_w/h and load_start_pos_w/h");
  if (p.format == AippFormat::yuv400_u8 && p.csc)
    bad("csc_switch: YUV400_U8 has one channel; it takes no CSC");
}

ops::TensorDesc aipp_source_desc(const AippParams &p, int64_t batch) {
  ops::TensorDesc d;
  d.dtype = ops::DType::u8;
  d.format = ops::Format::nhwc;
  switch (p.format) {
    case AippFormat::yuv420sp_u8:
      d.dims = {batch, p.src_h * 3 / 2, p.src_w, 1};
      break;
    case AippFormat::xrgb8888_u8:
      d.dims = {batch, p.src_h, p.src_w, 4};
      break;
    case AippFormat::rgb888_u8:
      d.dims = {batch, p.src_h, p.src_w, 3};
      break;
    case AippFormat::yuv400_u8:
      d.dims = {batch, p.src_h, p.src_w, 1};
      break;
  }
  return d;
}

namespace {

// The ascend_dynamic_aipp_data layout: this header, then one AippParams per image.
struct DynamicHeader {
  char magic[8];
  uint64_t images;
};
constexpr char kDynamicMagic[8] = {'O', 'A', 'C', 'L', 'A', 'I', 'P', 'P'};

}  // namespace

size_t dynamic_aipp_bytes(uint64_t images) {
  return sizeof(DynamicHeader) + images * sizeof(AippParams);
}

void write_dynamic_aipp(void *dst, const std::vector<AippParams> &images) {
  DynamicHeader h{};
  std::memcpy(h.magic, kDynamicMagic, sizeof h.magic);
  h.images = images.size();
  std::memcpy(dst, &h, sizeof h);
  std::memcpy(static_cast<uint8_t *>(dst) + sizeof h, images.data(),
              images.size() * sizeof(AippParams));
}

std::vector<AippParams> read_dynamic_aipp(const void *src, size_t size) {
  DynamicHeader h{};
  if (size >= sizeof h) std::memcpy(&h, src, sizeof h);
  if (size < sizeof h || std::memcmp(h.magic, kDynamicMagic, sizeof h.magic) != 0 ||
      dynamic_aipp_bytes(h.images) > size)
    fail(Errc::invalid_argument, "the " ACL_DYNAMIC_AIPP_NAME
                                 " buffer holds no AIPP parameters: set them with "
                                 "aclmdlSetInputAIPP before the execution");
  std::vector<AippParams> images(h.images);
  std::memcpy(images.data(), static_cast<const uint8_t *>(src) + sizeof h,
              images.size() * sizeof(AippParams));
  return images;
}

namespace {

// 8-bit pixels between the steps, [h][w][c].
struct Pixels {
  int32_t w = 0, h = 0, c = 0;
  std::vector<uint8_t> v;
  uint8_t *at(int32_t x, int32_t y) { return v.data() + (static_cast<size_t>(y) * w + x) * c; }
};

// Steps 1 to 3: the crop window of one image, its channels swapped and converted.
Pixels load_window(const AippParams &p, const uint8_t *img) {
  Pixels out{p.crop_w, p.crop_h, p.channels(), {}};
  out.v.resize(static_cast<size_t>(out.w) * out.h * out.c);
  const bool yuv = p.format == AippFormat::yuv420sp_u8 || p.format == AippFormat::yuv400_u8;
  for (int32_t y = 0; y < p.crop_h; ++y) {
    for (int32_t x = 0; x < p.crop_w; ++x) {
      const int64_t sy = p.crop_y + y, sx = p.crop_x + x, at = sy * p.src_w + sx;
      int32_t px[3] = {0, 0, 0};
      switch (p.format) {
        case AippFormat::yuv420sp_u8: {
          const uint8_t *uv =
              img + static_cast<int64_t>(p.src_w) * p.src_h + (sy / 2) * p.src_w + (sx / 2) * 2;
          px[0] = img[at], px[1] = uv[0], px[2] = uv[1];
          break;
        }
        case AippFormat::rgb888_u8:
          px[0] = img[at * 3], px[1] = img[at * 3 + 1], px[2] = img[at * 3 + 2];
          break;
        case AippFormat::xrgb8888_u8: {
          const uint8_t *q = img + at * 4 + (p.ax_swap ? 0 : 1);
          px[0] = q[0], px[1] = q[1], px[2] = q[2];
          break;
        }
        case AippFormat::yuv400_u8:
          px[0] = img[at];
          break;
      }
      if (p.rbuv_swap && out.c == 3) {
        if (yuv) std::swap(px[1], px[2]);
        else std::swap(px[0], px[2]);
      }
      if (p.csc) {
        int32_t conv[3];
        for (int r = 0; r < 3; ++r) {
          int32_t acc = 0;
          for (int c = 0; c < 3; ++c)
            acc += p.matrix[r][c] * (yuv ? px[c] - p.input_bias[c] : px[c]);
          conv[r] = std::clamp(yuv ? acc >> 8 : (acc >> 8) + p.output_bias[r], 0, 255);
        }
        std::memcpy(px, conv, sizeof px);
      }
      uint8_t *o = out.at(x, y);
      for (int c = 0; c < out.c; ++c) o[c] = static_cast<uint8_t>(px[c]);
    }
  }
  return out;
}

// Step 4: turned clockwise by `degrees`.
Pixels rotate(Pixels in, int32_t degrees) {
  if (degrees == 0) return in;
  const bool turned = degrees != 180;
  Pixels out{turned ? in.h : in.w, turned ? in.w : in.h, in.c, {}};
  out.v.resize(in.v.size());
  for (int32_t y = 0; y < out.h; ++y)
    for (int32_t x = 0; x < out.w; ++x) {
      const int32_t sx = degrees == 90 ? y : degrees == 180 ? in.w - 1 - x : in.w - 1 - y;
      const int32_t sy = degrees == 90 ? in.h - 1 - x : degrees == 180 ? in.h - 1 - y : x;
      std::memcpy(out.at(x, y), in.at(sx, sy), in.c);
    }
  return out;
}

// Step 5: bilinear, source position (d + 0.5) * in / out - 0.5 clamped to [0, in - 1].
Pixels resize(Pixels in, int32_t w, int32_t h) {
  if (w == in.w && h == in.h) return in;
  struct Tap {
    int32_t i0, i1;
    double f;
  };
  auto taps = [](int32_t in_n, int32_t out_n) {
    std::vector<Tap> t(out_n);
    for (int32_t d = 0; d < out_n; ++d) {
      const double s = std::clamp((d + 0.5) * in_n / out_n - 0.5, 0.0, in_n - 1.0);
      const auto i0 = static_cast<int32_t>(s);
      t[d] = {i0, std::min(i0 + 1, in_n - 1), s - i0};
    }
    return t;
  };
  const auto tx = taps(in.w, w), ty = taps(in.h, h);
  Pixels out{w, h, in.c, {}};
  out.v.resize(static_cast<size_t>(w) * h * in.c);
  for (int32_t y = 0; y < h; ++y)
    for (int32_t x = 0; x < w; ++x)
      for (int c = 0; c < in.c; ++c) {
        const Tap &a = tx[x], &b = ty[y];
        const double top = in.at(a.i0, b.i0)[c] * (1 - a.f) + in.at(a.i1, b.i0)[c] * a.f;
        const double bottom = in.at(a.i0, b.i1)[c] * (1 - a.f) + in.at(a.i1, b.i1)[c] * a.f;
        out.at(x, y)[c] = static_cast<uint8_t>(std::floor(top * (1 - b.f) + bottom * b.f + 0.5));
      }
  return out;
}

}  // namespace

void run_aipp(const AippParams &p, const uint8_t *src, int64_t batch, void *dst, ops::DType dtype) {
  const int channels = p.channels();
  const int32_t turned_w = p.rotation % 180 ? p.crop_h : p.crop_w,
                turned_h = p.rotation % 180 ? p.crop_w : p.crop_h;
  const int32_t in_w = p.resize ? p.resize_w : turned_w, in_h = p.resize ? p.resize_h : turned_h;
  const int64_t out_h = in_h + p.pad_top + p.pad_bottom, out_w = in_w + p.pad_left + p.pad_right;
  const int64_t plane = out_h * out_w;
  auto store = [&](int64_t at, float v) {
    if (dtype == ops::DType::f16) static_cast<uint16_t *>(dst)[at] = ops::float_to_half(v);
    else static_cast<float *>(dst)[at] = v;
  };
  for (int64_t n = 0; n < batch; ++n) {
    Pixels img = resize(rotate(load_window(p, src + n * p.image_bytes()), p.rotation), in_w, in_h);
    const int64_t base = n * channels * plane;
    for (int64_t i = 0; i < channels * plane; ++i) store(base + i, p.padding_value);
    for (int32_t y = 0; y < in_h; ++y) {
      for (int32_t x = 0; x < in_w; ++x) {
        const int64_t pixel = (p.pad_top + y) * out_w + (p.pad_left + x);
        const uint8_t *px = img.at(x, y);
        for (int c = 0; c < channels; ++c) {
          const float v = (static_cast<float>(px[c] - p.mean[c]) - p.min[c]) * p.var_reci[c];
          store(base + (p.nhwc ? pixel * channels + c : c * plane + pixel), v);
        }
      }
    }
  }
}

}  // namespace openacl::model
