// ROI, resize, JPEGE and border configurations: pure data calls, no aclInit needed.
#include <new>

#include "api/guard.h"
#include "dvpp/api/accessors.h"
#include "dvpp/api/descs.h"

using openacl::Errc;
using openacl::fail;
using openacl::api::guarded;
using openacl::dvpp::api::checked;
using openacl::dvpp::api::get;
using openacl::dvpp::api::set;

namespace {}  // namespace

extern "C" {

acldvppRoiConfig *acldvppCreateRoiConfig(uint32_t left, uint32_t right, uint32_t top,
                                         uint32_t bottom) {
  auto *roi = new (std::nothrow) acldvppRoiConfig;
  if (roi != nullptr) roi->rect = {left, right, top, bottom};
  return roi;
}
aclError acldvppDestroyRoiConfig(acldvppRoiConfig *roiConfig) {
  return guarded(__func__, [&] { delete checked(roiConfig, "roiConfig"); });
}
aclError acldvppSetRoiConfigLeft(acldvppRoiConfig *config, uint32_t left) {
  return set(__func__, config, "config", [&](auto &c) { c.rect.left = left; });
}
aclError acldvppSetRoiConfigRight(acldvppRoiConfig *config, uint32_t right) {
  return set(__func__, config, "config", [&](auto &c) { c.rect.right = right; });
}
aclError acldvppSetRoiConfigTop(acldvppRoiConfig *config, uint32_t top) {
  return set(__func__, config, "config", [&](auto &c) { c.rect.top = top; });
}
aclError acldvppSetRoiConfigBottom(acldvppRoiConfig *config, uint32_t bottom) {
  return set(__func__, config, "config", [&](auto &c) { c.rect.bottom = bottom; });
}
aclError acldvppSetRoiConfig(acldvppRoiConfig *config, uint32_t left, uint32_t right, uint32_t top,
                             uint32_t bottom) {
  return set(__func__, config, "config", [&](auto &c) { c.rect = {left, right, top, bottom}; });
}

acldvppResizeConfig *acldvppCreateResizeConfig(void) {
  return new (std::nothrow) acldvppResizeConfig;
}
aclError acldvppDestroyResizeConfig(acldvppResizeConfig *resizeConfig) {
  return guarded(__func__, [&] { delete checked(resizeConfig, "resizeConfig"); });
}
aclError acldvppSetResizeConfigInterpolation(acldvppResizeConfig *resizeConfig,
                                             uint32_t interpolation) {
  return set(__func__, resizeConfig, "resizeConfig", [&](auto &c) {
    if (interpolation == 5)
      fail(Errc::feature_not_supported,
           "interpolation 5 (Huawei's high-order filter) is not simulated; use 1 "
           "(bilinear) or 2 (nearest)");
    if (interpolation > 5)
      fail(Errc::invalid_argument,
           "interpolation " + std::to_string(interpolation) + " is not 0..5");
    c.interpolation = interpolation;
  });
}
uint32_t acldvppGetResizeConfigInterpolation(const acldvppResizeConfig *resizeConfig) {
  return get<uint32_t>(__func__, resizeConfig, "resizeConfig",
                       [](auto &c) { return c.interpolation; });
}

acldvppJpegeConfig *acldvppCreateJpegeConfig(void) { return new (std::nothrow) acldvppJpegeConfig; }
aclError acldvppDestroyJpegeConfig(acldvppJpegeConfig *jpegeConfig) {
  return guarded(__func__, [&] { delete checked(jpegeConfig, "jpegeConfig"); });
}
aclError acldvppSetJpegeConfigLevel(acldvppJpegeConfig *jpegeConfig, uint32_t level) {
  return set(__func__, jpegeConfig, "jpegeConfig", [&](auto &c) {
    if (level > 100)
      fail(Errc::invalid_argument, "level " + std::to_string(level) + " is not 0..100");
    c.level = level;
  });
}
uint32_t acldvppGetJpegeConfigLevel(const acldvppJpegeConfig *jpegeConfig) {
  return get<uint32_t>(__func__, jpegeConfig, "jpegeConfig", [](auto &c) { return c.level; });
}

acldvppBorderConfig *acldvppCreateBorderConfig(void) {
  return new (std::nothrow) acldvppBorderConfig;
}
aclError acldvppDestroyBorderConfig(acldvppBorderConfig *borderConfig) {
  return guarded(__func__, [&] { delete checked(borderConfig, "borderConfig"); });
}
aclError acldvppSetBorderConfigValue(acldvppBorderConfig *borderConfig, uint32_t index,
                                     double value) {
  return set(__func__, borderConfig, "borderConfig", [&](auto &c) {
    if (index > 3) fail(Errc::invalid_argument, "index " + std::to_string(index) + " is not 0..3");
    c.value[index] = value;
  });
}
aclError acldvppSetBorderConfigBorderType(acldvppBorderConfig *borderConfig,
                                          acldvppBorderType borderType) {
  return set(__func__, borderConfig, "borderConfig", [&](auto &c) {
    auto t = openacl::api::enum_value(borderType);
    if (t < BORDER_CONSTANT || t > BORDER_REFLECT_101)
      fail(Errc::invalid_argument,
           "borderType " + std::to_string(t) + " is not an acldvppBorderType");
    c.type = static_cast<uint32_t>(t);
  });
}
aclError acldvppSetBorderConfigTop(acldvppBorderConfig *borderConfig, uint32_t top) {
  return set(__func__, borderConfig, "borderConfig", [&](auto &c) { c.top = top; });
}
aclError acldvppSetBorderConfigBottom(acldvppBorderConfig *borderConfig, uint32_t bottom) {
  return set(__func__, borderConfig, "borderConfig", [&](auto &c) { c.bottom = bottom; });
}
aclError acldvppSetBorderConfigLeft(acldvppBorderConfig *borderConfig, uint32_t left) {
  return set(__func__, borderConfig, "borderConfig", [&](auto &c) { c.left = left; });
}
aclError acldvppSetBorderConfigRight(acldvppBorderConfig *borderConfig, uint32_t right) {
  return set(__func__, borderConfig, "borderConfig", [&](auto &c) { c.right = right; });
}
double acldvppGetBorderConfigValue(const acldvppBorderConfig *borderConfig, uint32_t index) {
  return get<double>(__func__, borderConfig, "borderConfig", [&](auto &c) {
    if (index > 3) fail(Errc::invalid_argument, "index " + std::to_string(index) + " is not 0..3");
    return c.value[index];
  });
}
acldvppBorderType acldvppGetBorderConfigBorderType(const acldvppBorderConfig *borderConfig) {
  return static_cast<acldvppBorderType>(
      get<uint32_t>(__func__, borderConfig, "borderConfig", [](auto &c) { return c.type; }));
}
uint32_t acldvppGetBorderConfigTop(const acldvppBorderConfig *borderConfig) {
  return get<uint32_t>(__func__, borderConfig, "borderConfig", [](auto &c) { return c.top; });
}
uint32_t acldvppGetBorderConfigBottom(const acldvppBorderConfig *borderConfig) {
  return get<uint32_t>(__func__, borderConfig, "borderConfig", [](auto &c) { return c.bottom; });
}
uint32_t acldvppGetBorderConfigLeft(const acldvppBorderConfig *borderConfig) {
  return get<uint32_t>(__func__, borderConfig, "borderConfig", [](auto &c) { return c.left; });
}
uint32_t acldvppGetBorderConfigRight(const acldvppBorderConfig *borderConfig) {
  return get<uint32_t>(__func__, borderConfig, "borderConfig", [](auto &c) { return c.right; });
}

}  // extern "C"
