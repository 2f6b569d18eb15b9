// The objects behind acldvpp*Desc / *Config handles. The caller owns them; each carries a tag
// that every call checks (a handle of another kind, a destroyed one or garbage in a live
// block is refused, not used). Picture state that tasks write back is shared with them
// (dvpp/picture.h), so destroying a descriptor while a task still runs is safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/ops/acl_dvpp.h"
#include "core/status.h"
#include "dvpp/histogram.h"
#include "dvpp/picture.h"
#include "dvpp/vpc.h"

namespace openacl::dvpp::api {

// Tags: "DVP" and a kind letter; cleared on destroy.
enum class Tag : uint32_t {
  dead = 0,
  channel = 0x44565043,  // DVPC
  picture = 0x44565050,  // DVPP
  batch = 0x44565042,    // DVPB
  roi = 0x44565052,      // DVPR
  resize = 0x44565053,   // DVPS
  jpege = 0x4456504A,    // DVPJ
  border = 0x4456504F,   // DVPO
  lut = 0x4456504C,      // DVPL
  hist = 0x44565048,     // DVPH
};

struct Tagged {
  explicit Tagged(Tag t) : tag(t) {}
  ~Tagged() { tag = Tag::dead; }
  Tag tag;
};

// Throws Errc::invalid_argument when p is NULL or not a live object of kind T.
template <class T>
T *checked(T *p, const char *what) {
  if (p == nullptr) fail(Errc::invalid_argument, std::string(what) + " is NULL");
  if (p->tag != T::kTag)
    fail(Errc::invalid_argument,
         std::string(what) + " is not a live object of its kind (destroyed, or another handle)");
  return p;
}
template <class T>
const T *checked(const T *p, const char *what) {
  return checked(const_cast<T *>(p), what);
}

}  // namespace openacl::dvpp::api

struct acldvppChannelDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::channel;
  acldvppChannelDesc() : Tagged(kTag) {}
  uint64_t id = 0;  // 0 until acldvppCreateChannel
  uint32_t mode = DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD | DVPP_CHNMODE_JPEGE | DVPP_CHNMODE_PNGD;
  uint32_t csc_matrix = ACL_DVPP_CSC_MATRIX_BT601_WIDE;
};

struct acldvppPicDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::picture;
  acldvppPicDesc() : Tagged(kTag), pic(std::make_shared<openacl::dvpp::Picture>()) {}
  std::shared_ptr<openacl::dvpp::Picture> pic;
  bool in_batch = false;  // an element of an acldvppBatchPicDesc, destroyed with it
};

struct acldvppBatchPicDesc : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::batch;
  explicit acldvppBatchPicDesc(uint32_t n) : Tagged(kTag), pics(n) {
    for (auto &p : pics) p.in_batch = true;
  }
  std::vector<acldvppPicDesc> pics;
};

struct acldvppRoiConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::roi;
  acldvppRoiConfig() : Tagged(kTag) {}
  openacl::dvpp::Rect rect;
};

struct acldvppResizeConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::resize;
  acldvppResizeConfig() : Tagged(kTag) {}
  uint32_t interpolation = 0;
};

struct acldvppJpegeConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::jpege;
  acldvppJpegeConfig() : Tagged(kTag) {}
  uint32_t level = 100;
};

struct acldvppBorderConfig : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::border;
  acldvppBorderConfig() : Tagged(kTag) {}
  double value[4] = {0, 0, 0, 0};
  uint32_t type = BORDER_CONSTANT;
  uint32_t top = 0, bottom = 0, left = 0, right = 0;
};

// Three maps of 256 bytes (CANN's default dims), identity until the program writes them; a
// call copies them when it is made, as CANN copies the map into the task's arguments.
struct acldvppLutMap : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::lut;
  acldvppLutMap() : Tagged(kTag) {
    for (auto &m : map.maps)
      for (int i = 0; i < 256; ++i) m[i] = static_cast<uint8_t>(i);
  }
  openacl::dvpp::Lut map;
};

// Three histograms of 256 counts, on the host as CANN's host mode keeps them; tasks add to
// them (shared, so that destroying the handle while a task runs is safe).
struct acldvppHist : openacl::dvpp::api::Tagged {
  static constexpr auto kTag = openacl::dvpp::api::Tag::hist;
  acldvppHist() : Tagged(kTag), hist(std::make_shared<openacl::dvpp::Histogram>()) {}
  std::shared_ptr<openacl::dvpp::Histogram> hist;
};
