// The functions of acl/ops/acl_dvpp.h that openacl does not implement (docs/dvpp.md): each
// fails with ACL_ERROR_API_NOT_SUPPORT and aclGetRecentErrMsg names it, or returns NULL / 0
// when it does not return an aclError. Implementing one means moving it out of this file.
#include "api/guard.h"

#include "acl/ops/acl_dvpp.h"

// Parameters are unused by design.
#pragma GCC diagnostic ignored "-Wunused-parameter"

extern "C" {

aclvencChannelDesc *aclvencCreateChannelDesc(void) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

aclError aclvencDestroyChannelDesc(aclvencChannelDesc *channelDesc) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescThreadId(aclvencChannelDesc *channelDesc, uint64_t threadId) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescCallback(aclvencChannelDesc *channelDesc, aclvencCallback callback) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescEnType(aclvencChannelDesc *channelDesc, acldvppStreamFormat enType) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescPicFormat(aclvencChannelDesc *channelDesc, acldvppPixelFormat picFormat) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescPicWidth(aclvencChannelDesc *channelDesc, uint32_t picWidth) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescPicHeight(aclvencChannelDesc *channelDesc, uint32_t picHeight) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescKeyFrameInterval(aclvencChannelDesc *channelDesc, uint32_t keyFrameInterval) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescBufAddr(aclvencChannelDesc *channelDesc, void *bufAddr) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescBufSize(aclvencChannelDesc *channelDesc, uint32_t bufSize) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescRcMode(aclvencChannelDesc *channelDesc, uint32_t rcMode) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescSrcRate(aclvencChannelDesc *channelDesc, uint32_t srcRate) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescMaxBitRate(aclvencChannelDesc *channelDesc, uint32_t maxBitRate) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetChannelDescParam(aclvencChannelDesc *channelDesc, aclvencChannelDescParamType paramType, size_t length, const void *param) {
  return openacl::api::report_unsupported(__func__);
}

void *aclvencGetChannelDescBufAddr(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescBufSize(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescChannelId(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint64_t aclvencGetChannelDescThreadId(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

aclvencCallback aclvencGetChannelDescCallback(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

acldvppStreamFormat aclvencGetChannelDescEnType(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

acldvppPixelFormat aclvencGetChannelDescPicFormat(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescPicWidth(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescPicHeight(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescKeyFrameInterval(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescRcMode(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescSrcRate(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint32_t aclvencGetChannelDescMaxBitRate(const aclvencChannelDesc *channelDesc) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

aclError aclvencGetChannelDescParam(const aclvencChannelDesc *channelDesc, aclvencChannelDescParamType paramType, size_t length, size_t *paramRetSize, void *param) {
  return openacl::api::report_unsupported(__func__);
}

uint8_t aclvencGetFrameConfigForceIFrame(const aclvencFrameConfig *config) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

uint8_t aclvencGetFrameConfigEos(const aclvencFrameConfig *config) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

aclError aclvencSetFrameConfigForceIFrame(aclvencFrameConfig *config, uint8_t forceIFrame) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSetFrameConfigEos(aclvencFrameConfig *config, uint8_t eos) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencDestroyFrameConfig(aclvencFrameConfig *config) {
  return openacl::api::report_unsupported(__func__);
}

aclvencFrameConfig *aclvencCreateFrameConfig(void) {
  (void)openacl::api::report_unsupported(__func__);
  return {};
}

aclError aclvencCreateChannel(aclvencChannelDesc *channelDesc) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencDestroyChannel(aclvencChannelDesc *channelDesc) {
  return openacl::api::report_unsupported(__func__);
}

aclError aclvencSendFrame(aclvencChannelDesc *channelDesc, acldvppPicDesc *input, void *reserve, aclvencFrameConfig *config, void *userdata) {
  return openacl::api::report_unsupported(__func__);
}

}  // extern "C"
