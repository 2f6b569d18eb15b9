#include "trace_commands.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// --- reading --------------------------------------------------------------------------------

struct Slice {
  double ts, dur;  // microseconds
  std::string name, cat;
  uint64_t seq = 0;  // the task's position in its stream (a model op: its model task's)
  std::string node;  // a model op's node
};

struct Track {
  std::string name;  // "device 0 / stream 0x... (context 0x...)"
  bool host = false;
  std::vector<Slice> slices;  // tasks, sorted by ts
  std::vector<Slice> ops;     // the ops of its model tasks (cat "model_op"), sorted by ts
};

struct Trace {
  std::vector<Track> tracks;  // host threads first, then streams in file order
  double begin = 0, end = 0;
};

Trace load(const std::string &path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception &e) {
    throw std::runtime_error("'" + path + "' is not JSON: " + e.what());
  }
  const nlohmann::json &events =
      doc.is_array() ? doc : doc.value("traceEvents", nlohmann::json::array());
  if (!events.is_array()) throw std::runtime_error("'" + path + "' has no traceEvents array");

  std::map<int64_t, std::string> process;
  std::map<std::pair<int64_t, int64_t>, std::string> thread;
  std::map<std::pair<int64_t, int64_t>, Track> by_id;
  std::vector<std::pair<int64_t, int64_t>> first_seen;
  for (const auto &e : events) {
    if (!e.is_object()) continue;
    std::string ph = e.value("ph", "");
    int64_t pid = e.value("pid", int64_t{0}), tid = e.value("tid", int64_t{0});
    if (ph == "M") {
      std::string name = e.value("args", nlohmann::json::object()).value("name", "");
      if (e.value("name", "") == "process_name") process[pid] = name;
      if (e.value("name", "") == "thread_name") thread[{pid, tid}] = name;
      continue;
    }
    if (ph != "X") continue;
    auto key = std::make_pair(pid, tid);
    auto [it, fresh] = by_id.try_emplace(key);
    if (fresh) first_seen.push_back(key);
    Slice s{
        e.value("ts", 0.0), e.value("dur", 0.0), e.value("name", ""), e.value("cat", ""), 0, ""};
    if (const auto args = e.find("args"); args != e.end() && args->is_object()) {
      s.seq = args->value("seq", uint64_t{0});
      s.node = args->value("node", "");
    }
    it->second.host |= s.cat == "host";
    (s.cat == "model_op" ? it->second.ops : it->second.slices).push_back(std::move(s));
  }
  Trace t;
  bool any = false;
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto &key : first_seen) {
      Track &track = by_id[key];
      if (track.host != (pass == 0)) continue;
      std::string p =
          process.count(key.first) ? process[key.first] : "pid " + std::to_string(key.first);
      std::string th = thread.count(key) ? thread[key] : "tid " + std::to_string(key.second);
      track.name = p + " / " + th;
      for (auto *v : {&track.slices, &track.ops})
        std::sort(v->begin(), v->end(), [](const Slice &a, const Slice &b) { return a.ts < b.ts; });
      for (const Slice &s : track.slices) {
        t.begin = any ? std::min(t.begin, s.ts) : s.ts;
        t.end = any ? std::max(t.end, s.ts + s.dur) : s.ts + s.dur;
        any = true;
      }
      t.tracks.push_back(std::move(track));
    }
  }
  return t;
}

// --- summary --------------------------------------------------------------------------------

using Intervals = std::vector<std::pair<double, double>>;

Intervals busy_intervals(const Track &t) {
  Intervals out;
  for (const Slice &s : t.slices) {
    double b = s.ts, e = s.ts + s.dur;
    if (!out.empty() && b <= out.back().second) {
      out.back().second = std::max(out.back().second, e);
    } else {
      out.emplace_back(b, e);
    }
  }
  return out;
}

double total(const Intervals &v) {
  double sum = 0;
  for (auto &[b, e] : v) sum += e - b;
  return sum;
}

double overlap(const Intervals &a, const Intervals &b) {
  double sum = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    double lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) sum += hi - lo;
    (a[i].second < b[j].second) ? ++i : ++j;
  }
  return sum;
}

// A duration given in us, in us below a millisecond, else in ms.
std::string ms(double us) {
  char buf[32];
  if (us < 1000.0) {
    std::snprintf(buf, sizeof buf, "%.3f us", us);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f ms", us / 1000.0);
  }
  return buf;
}

void summary(const Trace &t, const std::string &path) {
  std::vector<const Track *> streams;
  size_t tasks = 0;
  for (const Track &tr : t.tracks) {
    if (tr.host) continue;
    streams.push_back(&tr);
    tasks += tr.slices.size();
  }
  double span = t.end - t.begin;
  std::printf("trace %s: %zu task(s) on %zu stream(s) over %s\n\n", path.c_str(), tasks,
              streams.size(), ms(span).c_str());
  if (streams.empty()) return;

  std::vector<Intervals> busy;
  std::printf("per stream:\n");
  for (size_t i = 0; i < streams.size(); ++i) {
    const Track &tr = *streams[i];
    busy.push_back(busy_intervals(tr));
    const Intervals &b = busy.back();
    double gaps = 0, longest = 0;
    size_t ngaps = 0;
    for (size_t k = 1; k < b.size(); ++k) {
      double g = b[k].first - b[k - 1].second;
      gaps += g;
      longest = std::max(longest, g);
      ++ngaps;
    }
    std::printf("  [%zu] %s\n", i + 1, tr.name.c_str());
    std::printf(
        "      %zu task(s), busy %s (%.1f%% of the trace), %zu idle gap(s) totalling %s, "
        "longest %s\n",
        tr.slices.size(), ms(total(b)).c_str(), span > 0 ? 100.0 * total(b) / span : 0.0, ngaps,
        ms(gaps).c_str(), ms(longest).c_str());
  }

  std::vector<std::pair<const Slice *, size_t>> all;
  for (size_t i = 0; i < streams.size(); ++i) {
    for (const Slice &s : streams[i]->slices) all.emplace_back(&s, i);
  }
  size_t top = std::min<size_t>(all.size(), 10);
  std::partial_sort(all.begin(), all.begin() + static_cast<ptrdiff_t>(top), all.end(),
                    [](auto &a, auto &b) { return a.first->dur > b.first->dur; });
  std::printf("\nlongest tasks:\n");
  for (size_t k = 0; k < top; ++k) {
    const Slice &s = *all[k].first;
    std::printf("  %12s  %-10s %-24s on [%zu], at %s\n", ms(s.dur).c_str(), s.cat.c_str(),
                s.name.c_str(), all[k].second + 1, ms(s.ts - t.begin).c_str());
  }

  std::printf("\noverlap between streams (time both were busy):\n");
  bool any = false;
  for (size_t i = 0; i < streams.size(); ++i) {
    for (size_t j = i + 1; j < streams.size(); ++j) {
      double o = overlap(busy[i], busy[j]);
      if (o <= 0) continue;
      any = true;
      std::printf("  [%zu] & [%zu]: %s\n", i + 1, j + 1, ms(o).c_str());
    }
  }
  if (!any) std::printf("  none: the streams never ran at the same time\n");
}

// --- profile ------------------------------------------------------------------------------

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Execution {
  const Slice *task;
  std::vector<const Slice *> ops;
};

// The model executions of the trace whose ops were recorded, in start order; the last `last`
// of them (0: all).
std::vector<Execution> executions(const Trace &t, size_t last) {
  std::vector<Execution> out;
  for (const Track &tr : t.tracks) {
    std::map<uint64_t, Execution> by_seq;
    for (const Slice &s : tr.slices)
      if (s.cat == "model") by_seq[s.seq].task = &s;
    for (const Slice &op : tr.ops)
      if (auto it = by_seq.find(op.seq); it != by_seq.end()) it->second.ops.push_back(&op);
    for (auto &[seq, e] : by_seq)
      if (!e.ops.empty()) out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(),
            [](const Execution &a, const Execution &b) { return a.task->ts < b.task->ts; });
  if (last && out.size() > last) out.erase(out.begin(), out.end() - static_cast<ptrdiff_t>(last));
  return out;
}

std::string us_text(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, us < 10 ? "%.2f" : us < 1000 ? "%.1f" : "%.0f", us);
  return buf;
}

void profile(const Trace &t, size_t last, size_t top) {
  const std::vector<Execution> ex = executions(t, last);
  if (ex.empty())
    throw std::runtime_error(
        "the trace holds no model execution with its ops (run the model with OPENACL_TRACE set, or "
        "openacl run --profile)");
  // Per op: its place in the execution, so that repeated node names of other plans stay apart.
  struct Op {
    std::string type, node;
    std::vector<double> us;
  };
  std::vector<Op> ops;
  std::map<std::tuple<size_t, std::string, std::string>, size_t> op_at;
  std::map<std::string, std::vector<double>> type_us;  // per type: its total in each execution
  std::map<std::string, size_t> type_count;
  std::vector<double> total_us, ops_us, gaps, before, after, gap_sum;
  for (const Execution &e : ex) {
    total_us.push_back(e.task->dur);
    std::map<std::string, double> per_type;
    double sum = 0, gsum = 0;
    for (size_t i = 0; i < e.ops.size(); ++i) {
      const Slice &s = *e.ops[i];
      sum += s.dur;
      per_type[s.name] += s.dur;
      auto [it, fresh] = op_at.try_emplace({i, s.name, s.node}, ops.size());
      if (fresh) ops.push_back({s.name, s.node, {}});
      ops[it->second].us.push_back(s.dur);
      if (i > 0) {
        const double g = std::max(0.0, s.ts - (e.ops[i - 1]->ts + e.ops[i - 1]->dur));
        gaps.push_back(g);
        gsum += g;
      }
    }
    ops_us.push_back(sum);
    gap_sum.push_back(gsum);
    before.push_back(std::max(0.0, e.ops.front()->ts - e.task->ts));
    after.push_back(
        std::max(0.0, e.task->ts + e.task->dur - (e.ops.back()->ts + e.ops.back()->dur)));
    for (auto &[type, us] : per_type) type_us[type].push_back(us);
  }
  for (const Slice *s : ex.back().ops) ++type_count[s->name];
  const double exec_us = median(total_us);
  auto pct = [&](double us) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f%%", exec_us > 0 ? 100.0 * us / exec_us : 0.0);
    return std::string(buf);
  };
  std::printf("profile of %zu model execution(s) (%s): medians over the executions, times in us\n",
              ex.size(), ex.front().task->name.c_str());
  std::printf(
      "  execution %s us: %zu ops %s us (%s), gaps between ops %s us in all, before the first op "
      "%s us, "
      "after the last %s us\n",
      us_text(exec_us).c_str(), ex.back().ops.size(), us_text(median(ops_us)).c_str(),
      pct(median(ops_us)).c_str(), us_text(median(gap_sum)).c_str(),
      us_text(median(before)).c_str(), us_text(median(after)).c_str());
  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  if (!sorted.empty())
    std::printf(
        "  host overhead between consecutive ops: median %s us, p90 %s us, max %s us (%zu gaps)\n",
        us_text(median(gaps)).c_str(), us_text(sorted[sorted.size() * 9 / 10]).c_str(),
        us_text(sorted.back()).c_str(), sorted.size());

  std::vector<std::pair<double, std::string>> types;
  for (auto &[type, v] : type_us) types.push_back({median(v), type});
  std::sort(types.rbegin(), types.rend());
  std::printf("\n  %-24s %6s %10s %8s %10s\n", "op type", "count", "total us", "share",
              "us per op");
  for (auto &[us, type] : types)
    std::printf("  %-24s %6zu %10s %8s %10s\n", type.c_str(), type_count[type], us_text(us).c_str(),
                pct(us).c_str(), us_text(type_count[type] ? us / type_count[type] : 0).c_str());

  std::vector<std::pair<double, size_t>> by_time;
  for (size_t i = 0; i < ops.size(); ++i) by_time.push_back({median(ops[i].us), i});
  std::sort(by_time.rbegin(), by_time.rend());
  const size_t shown = top ? std::min(top, by_time.size()) : by_time.size();
  std::printf("\n  %-40s %-20s %10s %8s\n", "op (node)", "type", "us", "share");
  for (size_t k = 0; k < shown; ++k) {
    const Op &op = ops[by_time[k].second];
    std::printf("  %-40.40s %-20.20s %10s %8s\n", op.node.c_str(), op.type.c_str(),
                us_text(by_time[k].first).c_str(), pct(by_time[k].first).c_str());
  }
  if (shown < by_time.size()) std::printf("  ... %zu more ops\n", by_time.size() - shown);
}

// --- PNG ------------------------------------------------------------------------------------

uint32_t crc32(const uint8_t *p, size_t n, uint32_t crc = 0) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

void put32(std::vector<uint8_t> &out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}

void chunk(std::vector<uint8_t> &png, const char *type, const std::vector<uint8_t> &data) {
  put32(png, static_cast<uint32_t>(data.size()));
  size_t start = png.size();
  png.insert(png.end(), type, type + 4);
  png.insert(png.end(), data.begin(), data.end());
  put32(png, crc32(png.data() + start, png.size() - start));
}

// An RGB image as PNG. The zlib stream uses stored (uncompressed) deflate blocks: no library
// needed, and timelines are small.
std::vector<uint8_t> encode_png(const std::vector<uint8_t> &rgb, uint32_t w, uint32_t h) {
  std::vector<uint8_t> raw;
  raw.reserve((size_t{w} * 3 + 1) * h);
  for (uint32_t y = 0; y < h; ++y) {
    raw.push_back(0);  // filter: none
    raw.insert(raw.end(), rgb.begin() + static_cast<ptrdiff_t>(size_t{y} * w * 3),
               rgb.begin() + static_cast<ptrdiff_t>(size_t{y + 1} * w * 3));
  }
  std::vector<uint8_t> z = {0x78, 0x01};
  for (size_t off = 0; off < raw.size() || off == 0;) {
    size_t n = std::min<size_t>(65535, raw.size() - off);
    bool last = off + n == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back(static_cast<uint8_t>(n));
    z.push_back(static_cast<uint8_t>(n >> 8));
    z.push_back(static_cast<uint8_t>(~n));
    z.push_back(static_cast<uint8_t>(~n >> 8));
    z.insert(z.end(), raw.begin() + static_cast<ptrdiff_t>(off),
             raw.begin() + static_cast<ptrdiff_t>(off + n));
    off += n;
    if (last) break;
  }
  uint32_t a = 1, b = 0;
  for (uint8_t c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put32(z, (b << 16) | a);

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  std::vector<uint8_t> ihdr;
  put32(ihdr, w);
  put32(ihdr, h);
  ihdr.insert(ihdr.end(), {8, 2, 0, 0, 0});  // 8-bit RGB, deflate, no filter, no interlace
  chunk(png, "IHDR", ihdr);
  chunk(png, "IDAT", z);
  chunk(png, "IEND", {});
  return png;
}

// --- plot -----------------------------------------------------------------------------------

struct Rgb {
  uint8_t r, g, b;
};

Rgb color_of(const std::string &cat) {
  static const std::map<std::string, Rgb> colors = {
      {"memcpy", {66, 133, 244}},    {"memset", {120, 170, 250}},
      {"kernel", {234, 67, 53}},     {"op", {251, 140, 0}},
      {"model", {156, 39, 176}},     {"event_record", {52, 168, 83}},
      {"event_wait", {30, 110, 50}}, {"event_reset", {100, 200, 120}},
      {"callback", {255, 193, 7}},   {"host_func", {255, 213, 79}},
      {"host", {117, 117, 117}}};
  auto it = colors.find(cat);
  return it != colors.end() ? it->second : Rgb{0, 150, 136};
}

class Canvas {
 public:
  Canvas(uint32_t w, uint32_t h) : w_(w), h_(h), px_(size_t{w} * h * 3, 255) {}
  void fill(int x0, int y0, int x1, int y1, Rgb c) {
    x0 = std::max(x0, 0), y0 = std::max(y0, 0);
    x1 = std::min<int>(x1, static_cast<int>(w_)), y1 = std::min<int>(y1, static_cast<int>(h_));
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        uint8_t *p = &px_[(size_t(y) * w_ + size_t(x)) * 3];
        p[0] = c.r, p[1] = c.g, p[2] = c.b;
      }
    }
  }
  // Draws a number with a 3x5 digit font, each font pixel `scale` pixels wide.
  void number(int x, int y, unsigned value, int scale, Rgb c) {
    static const uint16_t kDigits[10] = {0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9,
                                         0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF};
    std::string text = std::to_string(value);
    for (char ch : text) {
      uint16_t glyph = kDigits[ch - '0'];
      for (int row = 0; row < 5; ++row) {
        for (int col = 0; col < 3; ++col) {
          if (glyph & (1u << (14 - row * 3 - col))) {
            fill(x + col * scale, y + row * scale, x + (col + 1) * scale, y + (row + 1) * scale, c);
          }
        }
      }
      x += 4 * scale;
    }
  }
  const std::vector<uint8_t> &pixels() const { return px_; }

 private:
  uint32_t w_, h_;
  std::vector<uint8_t> px_;
};

void plot(const Trace &t, const std::string &out_path, uint32_t width) {
  // Left of the rows, their numbers (the legend printed below says which stream is which).
  constexpr int kMargin = 10, kRow = 28, kBar = 20, kAxis = 12, kLabel = 30;
  if (t.tracks.empty()) throw std::runtime_error("the trace holds no tasks to plot");
  uint32_t height = static_cast<uint32_t>(2 * kMargin + kAxis + kRow * t.tracks.size());
  Canvas c(width, height);
  double span = std::max(t.end - t.begin, 1e-3);
  double plot_w = width - 2.0 * kMargin - kLabel;
  auto x_of = [&](double ts) {
    return kMargin + kLabel + static_cast<int>((ts - t.begin) / span * plot_w);
  };

  // Time grid: a tick every 1, 2 or 5 x 10^k us, at most ten across.
  static const double kSteps[] = {1, 2, 5};
  double step = 0.001;
  for (int i = 1; span / step > 10; ++i) step = 0.001 * std::pow(10.0, i / 3) * kSteps[i % 3];
  for (double ts = 0; ts <= span; ts += step) {
    int x = x_of(t.begin + ts);
    c.fill(x, kMargin, x + 1, static_cast<int>(height) - kMargin, {225, 225, 225});
    c.fill(x, kMargin, x + 1, kMargin + kAxis - 2, {90, 90, 90});
  }
  std::printf("%s: %u x %u pixels, %s across, grid every %s\n", out_path.c_str(), width, height,
              ms(span).c_str(), ms(step).c_str());
  for (size_t i = 0; i < t.tracks.size(); ++i) {
    const Track &tr = t.tracks[i];
    int y = kMargin + kAxis + static_cast<int>(i) * kRow;
    c.number(kMargin, y + 5, static_cast<unsigned>(i + 1), 2, {60, 60, 60});
    c.fill(kMargin + kLabel, y + kBar / 2, width - kMargin, y + kBar / 2 + 1, {200, 200, 200});
    for (const Slice &s : tr.slices) {
      int x0 = x_of(s.ts), x1 = std::max(x_of(s.ts + s.dur), x0 + 1);
      c.fill(x0, y, x1, y + kBar, color_of(s.cat));
    }
    std::printf("  row %zu: %s\n", i + 1, tr.name.c_str());
  }
  std::printf(
      "  colours: memcpy blue, memset light blue, kernel red, op orange, model purple, "
      "event record/wait green, callback yellow, host calls grey\n");
  std::vector<uint8_t> png = encode_png(c.pixels(), width, height);
  std::ofstream out(out_path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(png.data()), static_cast<std::streamsize>(png.size()));
  if (!out) throw std::runtime_error("cannot write '" + out_path + "'");
}

template <class F>
void run_or_fail(F &&body) {
  try {
    body();
  } catch (const std::exception &e) {
    std::cerr << "openacl trace: " << e.what() << "\n";
    throw CLI::RuntimeError(1);
  }
  throw CLI::Success();
}

}  // namespace

void openacl_print_profile(const std::string &path, size_t last, size_t top) {
  profile(load(path), last, top);
}

void openacl_add_trace_commands(CLI::App &app) {
  CLI::App *trace =
      app.add_subcommand("trace", "Read a timeline trace written under OPENACL_TRACE");
  trace->require_subcommand(1);

  auto file = std::make_shared<std::string>();
  CLI::App *sum = trace->add_subcommand(
      "summary", "Per-stream busy time and idle gaps, the longest tasks, overlap between streams");
  sum->add_option("file", *file, "the trace (.json)")->required()->check(CLI::ExistingFile);
  sum->callback([file] { run_or_fail([&] { summary(load(*file), *file); }); });

  auto prof_file = std::make_shared<std::string>();
  auto last = std::make_shared<size_t>(0);
  auto top = std::make_shared<size_t>(25);
  CLI::App *pr = trace->add_subcommand(
      "profile",
      "Per-op profile of the model executions: time per op type and per op, gaps between ops");
  pr->add_option("file", *prof_file, "the trace (.json)")->required()->check(CLI::ExistingFile);
  pr->add_option("--last", *last, "only the last N executions (0: all)")->capture_default_str();
  pr->add_option("--top", *top, "ops listed, slowest first (0: all)")->capture_default_str();
  pr->callback(
      [prof_file, last, top] { run_or_fail([&] { profile(load(*prof_file), *last, *top); }); });

  auto plot_file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>("timeline.png");
  auto width = std::make_shared<uint32_t>(1600);
  CLI::App *pl = trace->add_subcommand("plot", "Draw the timeline as a PNG, one row per stream");
  pl->add_option("file", *plot_file, "the trace (.json)")->required()->check(CLI::ExistingFile);
  pl->add_option("-o,--output", *out, "the picture to write")->capture_default_str();
  pl->add_option("--width", *width, "width in pixels")
      ->check(CLI::Range(200, 20000))
      ->capture_default_str();
  pl->callback(
      [plot_file, out, width] { run_or_fail([&] { plot(load(*plot_file), *out, *width); }); });
}
